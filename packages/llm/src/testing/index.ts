export {
  type FakeOpenAiServer,
  type FakeReply,
  type RecordedMessage,
  type RecordedRequest,
  startFakeOpenAiServer,
} from './fake-openai-server';
