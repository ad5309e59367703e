import type { ImageFormat } from '@renamer/contracts';
import { DEFAULT_PROPOSAL_WORDS, MAX_STEM_LENGTH } from '../filename/filename-rules';
import { FILE_EXTENSIONS } from '../filename/formats';
import { MIN_NAME_WORDS } from './compose-words';

/**
 * A proposal's words by what may be cut: a template's literal text and other tokens (`before`, `after`) never
 * are; the subject loses words from its end, never below three, to fit the length limit, a `-2` suffix, and (with
 * no template) the six parts a name may have in all.
 */
export interface NameShape {
  before: string[];
  subject: string[];
  after: string[];
  /** At most this many hyphen-separated parts, a suffix counted: six without a template, any with one. */
  maxParts: number;
}

export const plainShape = (subject: readonly string[]): NameShape => ({
  before: [],
  subject: [...subject],
  after: [],
  maxParts: DEFAULT_PROPOSAL_WORDS,
});

/**
 * The stem's words with `suffix` at the very end, the subject cut as little as it takes; null when even the
 * fewest subject words do not fit.
 */
export function fittedStem(shape: NameShape, suffix?: string): string[] | null {
  const tail = suffix === undefined ? [] : [suffix];
  const least = Math.min(MIN_NAME_WORDS, shape.subject.length);
  for (let kept = shape.subject.length; kept >= least; kept--) {
    const words = [...shape.before, ...shape.subject.slice(0, kept), ...shape.after, ...tail];
    if (words.length <= shape.maxParts && words.join('-').length <= MAX_STEM_LENGTH) return words;
  }
  return null;
}

/**
 * The shape of `words`, the stem the filename rules made of `shape`'s words: the template's words kept apart where
 * the rules left them as they were (they changed only the subject: a repeat dropped, a letter transliterated), else
 * all of it the subject.
 */
export function reshaped(shape: NameShape, words: readonly string[]): NameShape {
  const { before, after } = shape;
  const middle = words.length - before.length - after.length;
  const intact =
    middle >= 0 &&
    before.every((word, index) => words[index] === word) &&
    after.every((word, index) => words[before.length + middle + index] === word);
  return intact
    ? { ...shape, subject: words.slice(before.length, before.length + middle) }
    : { ...plainShape(words), maxParts: shape.maxParts };
}

/** The words of a shape that are not its subject: a template's, and a `-2` suffix. A score does not judge them. */
export const fixedWordsOf = (shape: NameShape) => [...shape.before, ...shape.after];

/**
 * The first name of the shape that `taken` does not hold, with its shape: as it is, else with `-2`, `-3`, … at the
 * very end (`acme-red-shoes-001-2.jpg`), the subject cut as little as it takes. A suffix that would repeat a word is
 * skipped (`red-2` never becomes `red-2-2`). Null when even the fewest subject words do not fit.
 */
export function uniqueShape(
  shape: NameShape,
  format: ImageFormat,
  taken: Pick<ReadonlySet<string>, 'has'>,
): { filename: string; shape: NameShape } | null {
  const extension = FILE_EXTENSIONS[format];
  const first = fittedStem(shape);
  if (first === null) return null;
  const name = `${first.join('-')}.${extension}`;
  if (!taken.has(name)) return { filename: name, shape };
  for (let counter = 2; ; counter++) {
    const suffix = String(counter);
    const words = fittedStem(shape, suffix);
    if (words === null) return null;
    if (words.slice(0, -1).includes(suffix)) continue;
    const filename = `${words.join('-')}.${extension}`;
    if (taken.has(filename)) continue;
    const kept = words.length - 1 - shape.before.length - shape.after.length;
    return {
      filename,
      shape: { ...shape, subject: shape.subject.slice(0, kept), after: [...shape.after, suffix] },
    };
  }
}

/** The words every name of the shape starts with, suffixed or not, joined: what to look up taken names by. */
export function sharedPrefix(shape: NameShape): string {
  const plain = fittedStem(shape) ?? [];
  const suffixed = fittedStem(shape, '9999') ?? [];
  let length = 0;
  while (length < plain.length && plain[length] === suffixed[length]) length++;
  return plain.slice(0, length).join('-');
}
