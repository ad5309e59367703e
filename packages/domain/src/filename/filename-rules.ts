import { IMAGE_FILE_EXTENSIONS, type ImageFormat } from '@renamer/contracts';
import { FILE_EXTENSIONS } from './formats';
import { toAsciiWords } from './transliterate';
import { isGenericWord, isReservedName, isStopWord } from './vocabulary';

export const MAX_STEM_LENGTH = 60;
export const DEFAULT_PROPOSAL_WORDS = 6;

export interface FilenameOptions {
  /** The sniffed format: it alone decides the extension. */
  format: ImageFormat;
  /** BCP 47 tag of the batch; German (`de`, `de-*`) spells umlauts out and has its own stop words. */
  locale: string;
}

export interface ProposalOptions extends FilenameOptions {
  maxWords?: number;
}

export type FilenameRejection =
  | 'empty'
  | 'only_generic_words'
  | 'reserved_name'
  | 'path_separator'
  | 'control_character'
  | 'bidi_control'
  | 'too_long';

export type FilenameResult = { ok: true; filename: string; stem: string } | { ok: false; reason: FilenameRejection };

/** Why a name was refused, in words a person can act on. */
export const FILENAME_REJECTIONS: Readonly<Record<FilenameRejection, string>> = {
  empty: 'Nothing is left of the name once it is made lowercase ASCII words: use letters or digits.',
  only_generic_words:
    'The name holds only generic words (img, image, photo, dsc, untitled, a camera counter, …): say what the picture shows.',
  reserved_name: 'The name is a reserved device name (con, nul, com1, …) that Windows cannot write.',
  path_separator: 'The name holds a path separator (/ or \\): give a name, not a path.',
  control_character: 'The name holds a control character (a line break, a tab, NUL, …).',
  bidi_control: 'The name holds a bidirectional control character, which can make a name read as another.',
  too_long: `The name is longer than ${MAX_STEM_LENGTH} characters before the extension once normalised.`,
};

/**
 * Image extensions someone may type (every accepted format's, and BMP's); removed (repeatedly: `a.jpg.jpg`) because
 * the format gives the real one.
 */
const TYPED_EXTENSION = new RegExp(`\\.(?:${[...IMAGE_FILE_EXTENSIONS, 'bmp'].join('|')})$`, 'i');
const PATH_SEPARATOR = /[/\\]/;
const CONTROL_CHARACTER = /\p{Cc}/u;
/** Embeddings, overrides, isolates and marks: they reorder what a person sees (`gpj.exe` shown as `exe.jpg`). */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A name a person typed. Their words are kept as they are, apart from what the rules forbid; a name the
 * rules would have to cut or guess at (a path, hidden characters, too many words) is refused instead.
 */
export function normalizeFilename(input: string, options: FilenameOptions): FilenameResult {
  if (PATH_SEPARATOR.test(input)) return { ok: false, reason: 'path_separator' };
  if (CONTROL_CHARACTER.test(input)) return { ok: false, reason: 'control_character' };
  if (BIDI_CONTROL.test(input)) return { ok: false, reason: 'bidi_control' };
  const words = trimStopWords(
    withoutRepeats(toAsciiWords(withoutTypedExtensions(input), options.locale)),
    options.locale,
  );
  if (words.join('-').length > MAX_STEM_LENGTH) return { ok: false, reason: 'too_long' };
  return toFilename(words, options);
}

/** A proposed name from candidate words or phrases, most important first: only meaningful words, at most `maxWords`. */
export function proposeFilename(candidates: readonly string[], options: ProposalOptions): FilenameResult {
  const { locale, maxWords = DEFAULT_PROPOSAL_WORDS } = options;
  const meaningful = withoutRepeats(candidates.flatMap((candidate) => toAsciiWords(candidate, locale))).filter(
    (word) => !isStopWord(word, locale) && !isGenericWord(word, locale),
  );
  return toFilename(meaningful.slice(0, maxWords), options);
}

/** Stem of the name used when an uploaded name has no letter or digit left (`東京.jpg`). */
export const UNNAMED_STEM = 'untitled';

/**
 * The uploaded name as a safe filename, for a person who wants it back: its own words lowercased and
 * joined by hyphens, the extension of the real format. Generic words and stop words stay (`IMG_4411.JPG`
 * → `img-4411.jpg`), which the proposal rules would refuse; what is not path-safe does not.
 */
export function originalAsFilename(originalFilename: string, { format, locale }: FilenameOptions): string {
  const words = fitWords(toAsciiWords(withoutTypedExtensions(originalFilename), locale), MAX_STEM_LENGTH);
  const stem = words.join('-') || UNNAMED_STEM;
  // `con.jpg` cannot be written on Windows: keep the word, make the name another one.
  return `${isReservedName(stem) ? `${stem}-file` : stem}.${FILE_EXTENSIONS[format]}`;
}

/** The leading words that fit in `maxLength` when joined by hyphens; a lone overlong first word is cut. */
export function fitWords(words: readonly string[], maxLength: number): string[] {
  const fitted: string[] = [];
  let length = -1;
  for (const word of words) {
    length += 1 + word.length;
    if (length > maxLength) break;
    fitted.push(word);
  }
  const [first] = words;
  return fitted.length === 0 && first !== undefined ? [first.slice(0, maxLength)] : fitted;
}

/** The name without the image extensions typed at its end (`a.jpg.jpeg` → `a`). */
export function withoutTypedExtensions(input: string): string {
  let text = input.trim();
  while (TYPED_EXTENSION.test(text)) text = text.replace(TYPED_EXTENSION, '');
  return text;
}

function toFilename(words: readonly string[], { format, locale }: FilenameOptions): FilenameResult {
  // Cutting to length can leave a stop word at the end, so trim again afterwards.
  const kept = trimStopWords(fitWords(words, MAX_STEM_LENGTH), locale);
  if (kept.length === 0) return { ok: false, reason: 'empty' };
  if (kept.every((word) => isGenericWord(word, locale))) return { ok: false, reason: 'only_generic_words' };
  const stem = kept.join('-');
  if (isReservedName(stem)) return { ok: false, reason: 'reserved_name' };
  return { ok: true, stem, filename: `${stem}.${FILE_EXTENSIONS[format]}` };
}

function trimStopWords(words: readonly string[], locale: string): string[] {
  let start = 0;
  let end = words.length;
  while (start < end && isStopWord(words[start]!, locale)) start++;
  while (end > start && isStopWord(words[end - 1]!, locale)) end--;
  return words.slice(start, end);
}

/** Each word once; a number may repeat (`2026-01-01`): it says when or which, and stuffs no keyword. */
function withoutRepeats(words: readonly string[]): string[] {
  return words.filter((word, index) => isNumber(word) || words.indexOf(word) === index);
}

export const isNumber = (word: string) => /^\d+$/.test(word);
