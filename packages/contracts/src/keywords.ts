import { z } from 'zod';
import { UploadFields } from './batches';
import { FreeText } from './text';

/** A keyword's limits, in characters once normalised; a request gives at most `MAX_KEYWORDS` to enhance. */
export const KEYWORD_MIN_CHARS = 2;
export const KEYWORD_MAX_CHARS = 60;
export const MAX_KEYWORDS = 20;
/** `validate` checks up to this many at once. */
export const MAX_KEYWORDS_TO_VALIDATE = 100;

export const KEYWORD_PROVIDERS = ['local', 'llm'] as const;
export const KeywordProviderName = z.enum(KEYWORD_PROVIDERS);
export type KeywordProviderName = z.infer<typeof KeywordProviderName>;

/**
 * Markup (a tag's brackets, an HTML entity, a script URL) and control characters (bidirectional controls
 * included). A keyword holding any of them is refused, and no answer may carry one.
 */
export const KEYWORD_MARKUP = /[<>]|&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);|(?:java|vb)script\s*:/iu;
export const KEYWORD_CONTROL = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** One keyword of an answer: plain text within the limits. */
export const AnswerKeyword = z
  .string()
  .min(KEYWORD_MIN_CHARS)
  .max(KEYWORD_MAX_CHARS)
  .refine((keyword) => !KEYWORD_MARKUP.test(keyword) && !KEYWORD_CONTROL.test(keyword), 'must be plain text');

const KeywordLocale = UploadFields.shape.locale.describe('BCP 47 language tag of the keywords, e.g. en or de-CH.');

/**
 * The keywords themselves are checked by the service, so that each bad one is named in a 400 `invalid_keywords`;
 * only a missing or non-array `keywords` (or an item that is not a string) is `validation_failed`.
 */
const KeywordsToCheck = z.array(z.string());

export const EnhanceKeywordsBody = z.object({
  keywords: KeywordsToCheck.describe(
    `1 to ${MAX_KEYWORDS} keywords of ${KEYWORD_MIN_CHARS} to ${KEYWORD_MAX_CHARS} characters each, plain text.`,
  ),
  context: FreeText.max(500)
    .optional()
    .describe('What the keywords are for, e.g. "handmade ceramic mugs for a coffee shop"; at most 500 characters.'),
  locale: KeywordLocale,
});
export type EnhanceKeywordsBody = z.infer<typeof EnhanceKeywordsBody>;

export const KeywordCategory = z.object({
  category: AnswerKeyword,
  keywords: z.array(AnswerKeyword).max(20),
});

/** What a keyword provider answers to `enhance`; the response adds which provider it was. */
export const EnhancedKeywords = z.object({
  keywords: z
    .array(AnswerKeyword)
    .max(MAX_KEYWORDS)
    .describe('The keywords normalised, without stop words at either end or duplicates.'),
  longTail: z
    .array(AnswerKeyword)
    .max(20)
    .describe('Longer phrases: a keyword with a modifier of colour, material, style, place or use.'),
  related: z.array(AnswerKeyword).max(20).describe('Terms people search for beside these keywords.'),
  categories: z.array(KeywordCategory).max(10).describe('The keywords grouped by what they are.'),
});
export type EnhancedKeywords = z.infer<typeof EnhancedKeywords>;

export const EnhanceKeywordsResponse = EnhancedKeywords.extend({
  provider: KeywordProviderName.describe('`llm` when the configured model answered, `local` otherwise.'),
});
export type EnhanceKeywordsResponse = z.infer<typeof EnhanceKeywordsResponse>;

export const SuggestKeywordsBody = z.union([
  z.strictObject({
    imageId: z
      .uuid()
      .describe('One of your images: the suggestions start from what its analysis found and its batch’s keywords.'),
  }),
  z.strictObject({
    text: FreeText.min(1).max(2000).describe('Free text about the images, at most 2,000 characters.'),
    locale: KeywordLocale,
  }),
]);
export type SuggestKeywordsBody = z.infer<typeof SuggestKeywordsBody>;

export const SuggestedKeywords = z.array(AnswerKeyword).max(MAX_KEYWORDS);

export const SuggestKeywordsResponse = z.object({
  suggestions: SuggestedKeywords.describe('The most useful first.'),
});
export type SuggestKeywordsResponse = z.infer<typeof SuggestKeywordsResponse>;

export const ValidateKeywordsBody = z.object({
  keywords: KeywordsToCheck.max(MAX_KEYWORDS_TO_VALIDATE).describe(
    `Up to ${MAX_KEYWORDS_TO_VALIDATE} keywords; each is judged, none is refused.`,
  ),
  locale: KeywordLocale,
});

export const KeywordValidation = z.object({
  keyword: z.string().describe('As it was sent.'),
  valid: z.boolean(),
  normalized: z.string().describe('Lowercase, trimmed, spaces collapsed, NFC, without stop words at either end.'),
  issues: z.array(z.string()).describe('Why it is not valid, one sentence each; empty when it is.'),
});

export const ValidateKeywordsResponse = z.object({ results: z.array(KeywordValidation) });
export type ValidateKeywordsResponse = z.infer<typeof ValidateKeywordsResponse>;
