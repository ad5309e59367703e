import type { EnhanceKeywordsResponse } from '@renamer/contracts';

/** Something that enhances and suggests keywords: the local engine, or a model behind `@renamer/llm`. */
export interface KeywordProvider {
  readonly name: 'local' | 'llm';
  /** Asked before each use when given: a provider switched off is passed over (never the last resort). */
  enabled?(): Promise<boolean>;
  enhance(
    input: { keywords: string[]; context?: string; locale: string },
    signal?: AbortSignal,
  ): Promise<Omit<EnhanceKeywordsResponse, 'provider'>>;
  suggest(
    input: { tags: readonly { label: string; confidence: number }[]; text?: string; locale: string },
    signal?: AbortSignal,
  ): Promise<string[]>;
}
