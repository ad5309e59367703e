export {
  type FakeOpenAiServer,
  type FakeReply,
  type FakeUsage,
  type RecordedMessage,
  type RecordedRequest,
  startFakeOpenAiServer,
} from './fake-openai-server';
