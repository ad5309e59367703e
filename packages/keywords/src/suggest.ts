import { isAnswerable } from './keyword-check';
import { normalizeKeyword, unique } from './normalize';
import { longestMatch } from './phrase';
import { PREPOSITIONS } from './prepositions';
import { stopWordsFor } from './stop-words';
import { vocabularyFor } from './vocabulary';

const MAX_SUGGESTIONS = 20;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

interface TextWord {
  word: string;
  /** Written with a capital letter where a sentence does not begin: a name ("Lisbon", "Barcelona"). */
  name: boolean;
}

function textWords(text: string, locale: string): TextWord[] {
  const normalized = text.normalize('NFC');
  return [...normalized.matchAll(WORD)].map((match) => {
    const before = normalized.slice(0, match.index).trimEnd();
    const startsSentence = before === '' || /[.!?:]$/.test(before);
    return { word: normalizeKeyword(match[0], locale), name: !startsSentence && /^\p{Lu}/u.test(match[0]) };
  });
}

/**
 * Keywords found in free text. With the English lists: each subject named, with the modifiers written just before
 * it ("handmade ceramic mugs", then "mug"), then names. Without lists (another language): its words that are
 * not stop words, since nothing tells its nouns apart.
 */
function keywordsInText(text: string, locale: string): string[] {
  const vocabulary = vocabularyFor(locale);
  const found = textWords(text, locale);
  const words = found.map((entry) => entry.word);
  const stopWords = stopWordsFor(locale);
  if (vocabulary.subjects.size === 0) return words.filter((word) => !stopWords.has(word) && word.length > 2);

  const terms: string[] = [];
  const used = new Set<number>();
  const isSubject = (phrase: string) => vocabulary.subjects.has(phrase);
  for (let index = 0; index < words.length; ) {
    const length = longestMatch(words, index, words.length, vocabulary.longestPhrase, isSubject);
    if (length === 0) {
      index++;
      continue;
    }
    let start = index;
    while (start > 0 && !used.has(start - 1) && vocabulary.modifiers.has(words[start - 1]!)) start--;
    const subject = vocabulary.subjects.get(words.slice(index, index + length).join(' '))!;
    if (start < index) terms.push(words.slice(start, index + length).join(' '));
    terms.push(subject.term);
    for (let word = start; word < index + length; word++) used.add(word);
    index += length;
  }
  const names = found.filter(
    (entry, index) => entry.name && !used.has(index) && !stopWords.has(entry.word) && !PREPOSITIONS.has(entry.word),
  );
  return [...terms, ...names.map((entry) => entry.word)];
}

/** What the tags say, the surest first, then what the text names; only plain keywords within the limits. */
export function suggestKeywords(
  tags: readonly { label: string; confidence: number }[],
  text: string | undefined,
  locale: string,
): string[] {
  const fromTags = [...tags]
    .sort((a, b) => b.confidence - a.confidence)
    .map((tag) => normalizeKeyword(tag.label, locale));
  const fromText = text ? keywordsInText(text, locale) : [];
  return unique([...fromTags, ...fromText])
    .filter(isAnswerable)
    .slice(0, MAX_SUGGESTIONS);
}
