import { z } from 'zod';

// \p{Cc} is every control character: C0 (NUL included, which PostgreSQL refuses in text), DEL and C1.
const ONE_LINE_WITHOUT_CONTROLS = /^[^\p{Cc}\u2028\u2029]*$/u;
const TEXT_WITHOUT_CONTROLS = /^(?:[\t\n\r]|[^\p{Cc}])*$/u;

/** Names and identifiers: one trimmed line without control characters. Chain `.min`, `.max`, `.regex` as needed. */
export const SingleLineText = z
  .string()
  .trim()
  .regex(ONE_LINE_WITHOUT_CONTROLS, { error: 'must be one line without control characters', abort: true });

/** Free text (a description, a context): tabs and line breaks are kept; other control characters are refused. */
export const FreeText = z.string().regex(TEXT_WITHOUT_CONTROLS, {
  error: 'must not contain control characters other than tabs and line breaks',
  abort: true,
});
