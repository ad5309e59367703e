import type { EnhancedKeywords, LlmProvider } from './provider';

/** The shape of the API's KeywordProvider, answered by the model. */
export interface LlmKeywordProvider {
  name: 'llm';
  enhance: (...args: Parameters<LlmProvider['enhanceKeywords']>) => Promise<EnhancedKeywords>;
  suggest: (...args: Parameters<LlmProvider['suggestKeywords']>) => Promise<string[]>;
}

export function llmKeywordProvider(provider: LlmProvider): LlmKeywordProvider {
  return {
    name: 'llm',
    enhance: (input, signal) => provider.enhanceKeywords(input, signal),
    suggest: (input, signal) => provider.suggestKeywords(input, signal),
  };
}
