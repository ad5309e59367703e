import { KEYWORD_CONTROL, KEYWORD_MARKUP, KEYWORD_MAX_CHARS, KEYWORD_MIN_CHARS } from '@renamer/contracts';
import { charCount, normalizeKeyword, wordsOf } from './normalize';
import { stopWordsFor, trimStopWords } from './stop-words';

/**
 * What can be wrong with a keyword. `refused` ones make an enhance request 400 `invalid_keywords`; the others
 * only make it invalid for `validate` (enhance leaves such a keyword out, or merges it with its twin).
 */
export const KEYWORD_ISSUES = {
  control_characters: { refused: true, message: 'contains control characters' },
  markup: { refused: true, message: 'contains markup (<, >, an HTML entity or a script URL)' },
  too_short: { refused: true, message: `is shorter than ${KEYWORD_MIN_CHARS} characters` },
  too_long: { refused: true, message: `is longer than ${KEYWORD_MAX_CHARS} characters` },
  no_words: { refused: false, message: 'has no word left once stop words are left out' },
  duplicate: { refused: false, message: 'repeats an earlier keyword' },
} as const satisfies Record<string, { refused: boolean; message: string }>;
export type KeywordIssue = keyof typeof KEYWORD_ISSUES;

export interface CheckedKeyword {
  keyword: string;
  /** Lowercase, NFC, spaces collapsed, without stop words at either end. */
  normalized: string;
  issues: KeywordIssue[];
}

function issuesOf(raw: string, collapsed: string, normalized: string): KeywordIssue[] {
  const issues: KeywordIssue[] = [];
  if (KEYWORD_CONTROL.test(raw)) issues.push('control_characters');
  if (KEYWORD_MARKUP.test(raw)) issues.push('markup');
  const length = charCount(collapsed);
  if (length < KEYWORD_MIN_CHARS) issues.push('too_short');
  if (length > KEYWORD_MAX_CHARS) issues.push('too_long');
  if (charCount(normalized) < KEYWORD_MIN_CHARS || !/[\p{L}\p{N}]/u.test(normalized)) issues.push('no_words');
  return issues;
}

/** Each keyword judged, in order; a later keyword equal to an earlier one once normalised is a duplicate. */
export function checkKeywords(keywords: readonly string[], locale: string): CheckedKeyword[] {
  const stopWords = stopWordsFor(locale);
  const seen = new Set<string>();
  return keywords.map((keyword) => {
    const collapsed = normalizeKeyword(keyword, locale);
    const normalized = trimStopWords(wordsOf(collapsed), stopWords).join(' ');
    const issues = issuesOf(keyword, collapsed, normalized);
    if (issues.length === 0 && seen.has(normalized)) issues.push('duplicate');
    seen.add(normalized);
    return { keyword, normalized, issues };
  });
}

export const isRefused = (checked: CheckedKeyword) => checked.issues.some((issue) => KEYWORD_ISSUES[issue].refused);

/** The keywords worth working with: none refused or empty, each once, normalised. */
export function usableKeywords(keywords: readonly string[], locale: string): string[] {
  return checkKeywords(keywords, locale)
    .filter((checked) => checked.issues.length === 0)
    .map((checked) => checked.normalized);
}

/** Whether a text may be answered as a keyword: plain, within the limits, with a word in it. */
export function isAnswerable(text: string): boolean {
  const length = charCount(text);
  return (
    length >= KEYWORD_MIN_CHARS &&
    length <= KEYWORD_MAX_CHARS &&
    !KEYWORD_MARKUP.test(text) &&
    !KEYWORD_CONTROL.test(text) &&
    /[\p{L}\p{N}]/u.test(text)
  );
}
