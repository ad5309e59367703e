import { z } from 'zod';

/**
 * The shapes a model must answer in. Case, spacing and duplicates are tidied before validation; anything else
 * outside the bounds (markup, control characters, too many or too long items) makes the whole answer invalid.
 */

const tidy = (text: string) => text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
const unique = <T>(items: T[], key: (item: T) => string = String) => {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
};

/** A word of a filename in the person's language: letters and digits of any script. */
const TitleWord = z.string().regex(/^[\p{L}\p{N}]{1,24}$/u, 'must be one short word of letters or digits');
/** Models write "coffee cup" or "coffee-cup" for two words; the name wants them apart. */
const TitleWords = z
  .array(z.string())
  .transform((words) =>
    unique(
      words.flatMap((word) =>
        tidy(word)
          .split(/[\s-]+/)
          .filter(Boolean),
      ),
    ),
  )
  .pipe(z.array(TitleWord).min(1).max(8));

/** Tag labels are plain lowercase English, like every other source's. */
const TagLabel = z
  .string()
  .transform(tidy)
  .pipe(
    z
      .string()
      .max(40)
      .regex(/^[a-z0-9]+(?:[ '-][a-z0-9]+){0,3}$/, 'must be one to four plain English words'),
  );
const Tags = z
  .array(z.object({ label: TagLabel, confidence: z.number().min(0).max(1) }))
  .max(20)
  .transform((tags) => unique(tags, (tag) => tag.label));

const MARKUP = /[<>{}[\]`*#|\\]/;
const CONTROL = /\p{Cc}/u;
const NOT_ALT_TEXT = /^(?:(?:an?|the) )?(?:image|picture|photo|photograph) of\b/i;

export const ALT_TEXT_MAX_CHARS = 125;
const AltText = z
  .string()
  .trim()
  .min(1)
  .max(ALT_TEXT_MAX_CHARS)
  .refine((text) => !CONTROL.test(text), 'must be one line')
  .refine((text) => !MARKUP.test(text), 'must not contain markup')
  .refine((text) => !NOT_ALT_TEXT.test(text), 'must not start with "image of", "photo of" or the like');

export const DescribeImageAnswer = z.object({ titleWords: TitleWords, tags: Tags, altText: AltText });

/** The same bounds as the API's keywords: 2 to 60 characters, one line, no markup. */
const Keyword = z
  .string()
  .transform(tidy)
  .pipe(
    z
      .string()
      .min(2)
      .max(60)
      .refine((text) => !CONTROL.test(text) && !MARKUP.test(text), 'must be plain text'),
  );
const Keywords = (min: number) =>
  z
    .array(Keyword)
    .min(min)
    .max(20)
    .transform((keywords) => unique(keywords));

export const EnhanceKeywordsAnswer = z.object({
  keywords: Keywords(1),
  longTail: Keywords(0),
  related: Keywords(0),
  categories: z.array(z.object({ category: Keyword, keywords: Keywords(1) })).max(10),
});

export const SuggestKeywordsAnswer = z.object({ keywords: Keywords(0) });

/** A short account of what was wrong, for the error message (the answer itself is not repeated). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`)
    .join('; ');
}
