import stopwordsIso from 'stopwords-iso/stopwords-iso.json' with { type: 'json' };
import { languageOf, vocabularyFor } from './vocabulary';

const LISTS: Readonly<Record<string, readonly string[] | undefined>> = stopwordsIso;
const cache = new Map<string, ReadonlySet<string>>();

/**
 * The stop words of the locale's language (none for a language stopwords-iso lacks), less every word of the
 * curated lists: its English list holds "mug", "home", "ring", "old" and "computer".
 */
export function stopWordsFor(locale: string): ReadonlySet<string> {
  const language = languageOf(locale);
  let words = cache.get(language);
  if (!words) {
    const curated = vocabularyFor(locale).words;
    words = new Set((LISTS[language] ?? []).filter((word) => !curated.has(word)));
    cache.set(language, words);
  }
  return words;
}

/** The words without stop words at either end; those inside stay ("cup of tea"). */
export function trimStopWords(words: readonly string[], stopWords: ReadonlySet<string>): string[] {
  let start = 0;
  let end = words.length;
  while (start < end && stopWords.has(words[start]!)) start++;
  while (end > start && stopWords.has(words[end - 1]!)) end--;
  return words.slice(start, end);
}
