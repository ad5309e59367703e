import type { ImageFormat } from '@renamer/contracts';
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

export type FilenameRejection = 'empty' | 'only_generic_words' | 'reserved_name';

export type FilenameResult = { ok: true; filename: string; stem: string } | { ok: false; reason: FilenameRejection };

/** Image extensions someone may type; removed (repeatedly: `a.jpg.jpg`) because the format gives the real one. */
const TYPED_EXTENSION = /\.(?:jpe?g|jpe|jfif|png|webp|gif|avif|tiff?|heic|heif|bmp)$/i;

/** A name a person typed. Their words are kept as they are, apart from what the rules forbid. */
export function normalizeFilename(input: string, options: FilenameOptions): FilenameResult {
  let text = input.trim();
  while (TYPED_EXTENSION.test(text)) text = text.replace(TYPED_EXTENSION, '');
  const words = trimStopWords(withoutRepeats(toAsciiWords(text, options.locale)), options.locale);
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

function withoutRepeats(words: readonly string[]): string[] {
  return [...new Set(words)];
}
