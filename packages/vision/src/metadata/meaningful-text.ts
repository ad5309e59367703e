import { boilerplateFamily } from './boilerplate';

/** A lang-alt attribute leaked in front of the real value (`lang="x-default" Sunset over the Tagus`). */
const LEAKED_LANG_PREFIX = /^(?:(?:xml:)?lang=["']?[\w-]+["']?|\[?x-default\]?)\s+/i;
/** A copyright mark ends the photographer's words: what follows it is a credit. */
const CREDIT_MARK = /\s*[-–—|,]?\s*(?:©|\(c\)(?=\s*\d{4})|℗)/i;
const SENTENCE_BREAK = /(?<=[.!?])\s+|\s*[\r\n|]+\s*/;
const HAS_WORD = /[\p{L}\p{N}]/u;

/** Lowercased words, punctuation dropped: `NIKON D750,` → `nikon`, `d750`. */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Case, spacing and punctuation aside: `NIKON D750` matches `Nikon-D750`. */
export function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The sentences of a metadata value that may be the photographer's own words, rejoined; `''` when none are.
 * Dropped: boilerplate (see `BOILERPLATE_FAMILIES`), a credit after a copyright mark, and any sentence made only of
 * the camera's words (`notDescriptive`: its make, model or lens, e.g. `Nikon D750` or `NIKON`).
 */
export function meaningfulText(value: string, notDescriptive: readonly string[] = []): string {
  const camera = new Set(notDescriptive.map(comparable).filter(Boolean));
  const cameraWords = new Set(notDescriptive.flatMap(wordsOf));
  const namesOnlyTheCamera = (sentence: string) =>
    camera.has(comparable(sentence)) || wordsOf(sentence).every((word) => cameraWords.has(word));
  const text = value
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}]/gu, (character) => (character === '\n' || character === '\r' ? '\n' : ' '))
    .replace(/[^\S\r\n]+/g, ' ')
    .trim()
    .replace(LEAKED_LANG_PREFIX, '');
  const [beforeCredit = ''] = text.split(CREDIT_MARK);
  return beforeCredit
    .split(SENTENCE_BREAK)
    .map((sentence) => sentence.trim())
    .filter(
      (sentence) => HAS_WORD.test(sentence) && boilerplateFamily(sentence) === null && !namesOnlyTheCamera(sentence),
    )
    .join(' ');
}
