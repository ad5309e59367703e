import { fitWords, MAX_STEM_LENGTH } from './filename-rules';

export interface UniqueFilenameOptions {
  /** The most words the name may have with its suffix, which counts as one: proposals keep to six. */
  maxWords?: number;
}

/**
 * `filename`, or if `taken` holds it, the first free `<stem>-2.<ext>`, `<stem>-3.<ext>`, …; the stem loses
 * words from its end when the suffix would take it past the length limit or past `maxWords`.
 */
export function uniqueFilename(
  filename: string,
  taken: Pick<ReadonlySet<string>, 'has'>,
  { maxWords = Number.POSITIVE_INFINITY }: UniqueFilenameOptions = {},
): string {
  if (!taken.has(filename)) return filename;
  const dot = filename.lastIndexOf('.');
  const stem = dot === -1 ? filename : filename.slice(0, dot);
  const extension = dot === -1 ? '' : filename.slice(dot);
  const words = stem.split('-').slice(0, Math.max(1, maxWords - 1));
  for (let counter = 2; ; counter++) {
    const suffix = String(counter);
    const kept = fitWords(words, MAX_STEM_LENGTH - suffix.length - 1);
    // `red-2` must not become `red-2-2`: no word may repeat.
    if (kept.includes(suffix)) continue;
    const candidate = `${[...kept, suffix].join('-')}${extension}`;
    if (!taken.has(candidate)) return candidate;
  }
}
