import {
  AppError,
  EnhancedKeywords,
  type EnhanceKeywordsBody,
  type EnhanceKeywordsResponse,
  KEYWORD_MAX_CHARS,
  KEYWORD_MIN_CHARS,
  type KeywordProviderName,
  MAX_KEYWORDS,
  type ProblemFieldError,
  SuggestedKeywords,
  type SuggestKeywordsBody,
  type TagSource,
  type ValidateKeywordsResponse,
} from '@renamer/contracts';
import type { BatchRepository, ImageRepository } from '@renamer/db';
import { type CheckedKeyword, checkKeywords, isRefused, KEYWORD_ISSUES, type KeywordProvider } from '@renamer/keywords';
import type { z } from 'zod';

export interface KeywordServiceDeps {
  /** In order of preference, the local engine last: the first that gives a valid answer speaks. */
  providers: readonly [...KeywordProvider[], KeywordProvider];
  images: Pick<ImageRepository, 'findByIdForUser'>;
  batches: Pick<BatchRepository, 'findById'>;
  log: { warn(details: object, message: string): void };
}

/** Camera and date tags describe the shot, not what is in it. */
const UNSUGGESTED_SOURCES: ReadonlySet<TagSource> = new Set(['camera', 'date']);

const whyRefused = (checked: CheckedKeyword) => checked.issues.map((issue) => KEYWORD_ISSUES[issue].message).join(', ');

/** 400 `invalid_keywords` naming each refused keyword and why, or for a list of the wrong length. */
function refuseInvalid(keywords: readonly string[], checked: readonly CheckedKeyword[]): void {
  const errors: ProblemFieldError[] = checked.flatMap((entry, index) =>
    isRefused(entry)
      ? [
          {
            path: `body.keywords.${index}`,
            message: `${JSON.stringify(entry.keyword)} ${whyRefused(entry)}`,
            code: 'invalid_keywords' as const,
          },
        ]
      : [],
  );
  if (keywords.length < 1 || keywords.length > MAX_KEYWORDS) {
    errors.unshift({
      path: 'body.keywords',
      message: `${keywords.length} keywords were sent: give 1 to ${MAX_KEYWORDS}.`,
      code: 'invalid_keywords',
    });
  }
  if (errors.length === 0) return;
  throw new AppError(
    'invalid_keywords',
    `Keywords must be 1 to ${MAX_KEYWORDS} plain texts of ${KEYWORD_MIN_CHARS} to ${KEYWORD_MAX_CHARS} characters, without markup or control characters.`,
    errors,
  );
}

/**
 * The keyword endpoints. Enhancing and suggesting ask each provider in turn (the model first, when one is
 * configured): an answer that fails the contract's schema counts as a failure, and any failure falls back to
 * the next provider, the local engine last, so a person always gets an answer.
 */
export function createKeywordService(deps: KeywordServiceDeps) {
  async function firstAnswer<S extends z.ZodType>(
    schema: S,
    ask: (provider: KeywordProvider) => Promise<unknown>,
    signal: AbortSignal | undefined,
  ): Promise<{ answer: z.infer<S>; provider: KeywordProviderName }> {
    const preferred = deps.providers.slice(0, -1);
    const lastResort = deps.providers.at(-1)!;
    for (const provider of preferred) {
      if (provider.enabled && !(await provider.enabled())) continue;
      try {
        return { answer: schema.parse(await ask(provider)), provider: provider.name };
      } catch (err) {
        // The client left: nobody is waiting for the next provider's answer.
        if (signal?.aborted) throw err;
        deps.log.warn({ err, provider: provider.name }, 'keyword provider failed; the next one answers');
      }
    }
    return { answer: schema.parse(await ask(lastResort)), provider: lastResort.name };
  }

  return {
    async enhance(
      { keywords, context, locale }: EnhanceKeywordsBody,
      signal?: AbortSignal,
    ): Promise<EnhanceKeywordsResponse> {
      const checked = checkKeywords(keywords, locale);
      refuseInvalid(keywords, checked);
      const usable = checked.filter((entry) => entry.issues.length === 0).map((entry) => entry.normalized);
      const { answer, provider } = await firstAnswer(
        EnhancedKeywords,
        (each) => each.enhance({ keywords: usable, ...(context ? { context } : {}), locale }, signal),
        signal,
      );
      return { ...answer, provider };
    },

    /** From an image's tags and its batch's keywords (context as text), or from free text. */
    async suggest(userId: string, body: SuggestKeywordsBody, signal?: AbortSignal): Promise<{ suggestions: string[] }> {
      const input = 'imageId' in body ? await imageHints(userId, body.imageId) : { tags: [], ...body };
      const { answer } = await firstAnswer(SuggestedKeywords, (each) => each.suggest(input, signal), signal);
      return { suggestions: answer };
    },

    validate(keywords: readonly string[], locale: string): ValidateKeywordsResponse {
      return {
        results: checkKeywords(keywords, locale).map((entry) => ({
          keyword: entry.keyword,
          valid: entry.issues.length === 0,
          normalized: entry.normalized,
          issues: entry.issues.map((issue) => KEYWORD_ISSUES[issue].message),
        })),
      };
    },
  };

  async function imageHints(userId: string, imageId: string) {
    const image = await deps.images.findByIdForUser(imageId, userId);
    const batch = image && (await deps.batches.findById(image.batchId));
    if (!image || !batch) throw new AppError('not_found', 'No such image.');
    return {
      tags: [
        ...batch.keywords.map((label) => ({ label, confidence: 1 })),
        ...image.visionTags.filter((tag) => !UNSUGGESTED_SOURCES.has(tag.source)),
      ],
      ...(batch.context ? { text: batch.context } : {}),
      locale: batch.locale,
    };
  }
}

export type KeywordService = ReturnType<typeof createKeywordService>;
