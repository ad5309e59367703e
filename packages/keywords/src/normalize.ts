/** Separators people type around a keyword ("mug," or "'vintage'") that are no part of it. */
const EDGE_PUNCTUATION = /^[\s.,;:!?'"“”‘’()[\]{}]+|[\s.,;:!?'"“”‘’()[\]{}]+$/gu;

/** Lowercase by the locale's rules (Turkish dotted i), or by the root locale when the tag is unknown to Intl. */
function lowercase(text: string, locale: string): string {
  try {
    return text.toLocaleLowerCase(locale);
  } catch {
    return text.toLowerCase();
  }
}

/** NFC, lowercase, spaces collapsed, trimmed of spaces and separators at either end. */
export function normalizeKeyword(raw: string, locale: string): string {
  return lowercase(raw.normalize('NFC'), locale).replace(/\s+/gu, ' ').replace(EDGE_PUNCTUATION, '');
}

/** The words of a normalised text, without the punctuation between them ("mugs, cups." → mugs, cups). */
export function wordsOf(normalized: string): string[] {
  return normalized
    .split(/[\s,;:!?()[\]{}"“”]+/u)
    .map((word) => word.replace(EDGE_PUNCTUATION, ''))
    .filter(Boolean);
}

export const charCount = (text: string) => [...text].length;

/** Each item once, in first-seen order. */
export function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
