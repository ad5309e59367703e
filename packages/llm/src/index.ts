export { ALT_TEXT_MAX_CHARS } from './answers';
export { type LlmConfig, type LlmEnv, llmConfigFromEnv, llmEnv, parseLlmEnv } from './env';
export { LlmError, type LlmFailure, type LlmOperation, type LlmUsage } from './errors';
export { type LlmKeywordProvider, llmKeywordProvider } from './keyword-provider';
export type { ImageSignals, KeywordHints, KeywordsToEnhance } from './prompts';
export {
  createLlmProvider,
  type EnhancedKeywords,
  type ImageDescription,
  LLM_TAG_MIN_CONFIDENCE,
  type LlmLogger,
  type LlmProvider,
} from './provider';
export { LLM_IMAGE_EDGE_PX, smallJpeg } from './small-jpeg';
