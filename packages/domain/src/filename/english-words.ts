import { createRequire } from 'node:module';

let words: ReadonlySet<string> | undefined;

/** The ~275,000 lowercase words of `an-array-of-english-words`, loaded on first use (~20 MB, ~60 ms). */
export function englishWords(): ReadonlySet<string> {
  if (!words) {
    const list: string[] = createRequire(import.meta.url)('an-array-of-english-words');
    words = new Set(list);
  }
  return words;
}
