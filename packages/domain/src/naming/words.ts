import { elidesWithApostrophe, toAsciiWords } from '../filename/transliterate';
import { isGenericWord, isStopWord } from '../filename/vocabulary';

/** One written word of a label, with the ASCII words the locale turns it into. */
export interface Token {
  /** As written, lowercase (`grüne`). */
  text: string;
  /** As a filename writes it (`gruene`): usually one word, `l'eau` in French gives two. */
  ascii: string[];
  stop: boolean;
  generic: boolean;
}

/** A run of tokens that reads as one phrase: `coffee cup`, `cup of tea`. */
export interface Chunk {
  /** For people: the tokens as written, joined by spaces. */
  text: string;
  /** For a filename: the ASCII words in order. */
  words: string[];
}

const WRITTEN_WORD = /[\p{L}\p{N}]+(?:['’ʼ][\p{L}\p{N}]+)*/gu;

/** The written words of a label; in French and Italian, `l'eau` is two of them. */
export function tokensOf(label: string, locale: string): Token[] {
  const written = [...label.normalize('NFC').toLowerCase().matchAll(WRITTEN_WORD)].map(([text]) => text);
  return (elidesWithApostrophe(locale) ? written.flatMap((text) => text.split(/['’ʼ]/)) : written)
    .map((text) => ({ text, ascii: toAsciiWords(text, locale) }))
    .filter(({ ascii }) => ascii.length > 0)
    .map(({ text, ascii }) => ({
      text,
      ascii,
      stop: ascii.every((word) => isStopWord(word, locale)),
      generic: ascii.every((word) => isGenericWord(word, locale)),
    }));
}

/** The tokens without stop words at either end. */
export function trimStopTokens(tokens: readonly Token[]): Token[] {
  let start = 0;
  let end = tokens.length;
  while (start < end && tokens[start]!.stop) start++;
  while (end > start && tokens[end - 1]!.stop) end--;
  return tokens.slice(start, end);
}

/** Splits tokens into runs wherever `isBreak` holds, each run trimmed of stop words at its ends. */
export function splitTokens(tokens: readonly Token[], isBreak: (token: Token) => boolean): Token[][] {
  const runs: Token[][] = [[]];
  for (const token of tokens) {
    if (isBreak(token)) runs.push([]);
    else runs.at(-1)!.push(token);
  }
  return runs.map(trimStopTokens).filter((run) => run.length > 0);
}

export function chunkOf(tokens: readonly Token[]): Chunk {
  return { text: tokens.map((token) => token.text).join(' '), words: tokens.flatMap((token) => token.ascii) };
}

/** Endings that make another form of the same word: cup/cups, cloud/cloudy, green/greenery, box/boxes. */
const INFLECTIONS = ['s', 'es', 'y', 'ies', 'ery', 'ish', 'ed', 'ing', 'er'];

/** Whether two ASCII words are one word in two forms, so a name holding both repeats itself. */
export function sameRoot(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 3 || !long.startsWith(short)) return false;
  return INFLECTIONS.includes(long.slice(short.length));
}

export function hasRootIn(word: string, words: Iterable<string>): boolean {
  for (const other of words) if (sameRoot(word, other)) return true;
  return false;
}
