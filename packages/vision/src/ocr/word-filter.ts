import type { VisionTag } from '@renamer/contracts';
import { confidenceBeyond } from '../pixels/confidence';

/** One word as the OCR engine read it, with its confidence in 0..100. */
export interface ReadWord {
  text: string;
  confidence: number;
}

/** Tesseract's word confidence (0..100) from which a dictionary word is kept. */
const DICTIONARY_WORD_MIN_CONFIDENCE = 85;
/** A word not in the dictionary must look like a name and be read at least this surely. */
const NAME_MIN_CONFIDENCE = 92;
const MIN_LETTERS = 3;

/** Capitalised (`Lavazza`) or all capitals (`IKEA`): how brand and product names are printed. */
const NAME_SHAPE = /^(?:[A-Z][a-z]+|[A-Z]+)$/;
const VOWEL = /[aeiouy]/i;
const CONSONANT_RUN = /[^aeiouy]{4,}/i;
const REPEATED_LETTER = /(.)\1\1/i;

function looksLikeName(letters: string): boolean {
  return (
    NAME_SHAPE.test(letters) && VOWEL.test(letters) && !CONSONANT_RUN.test(letters) && !REPEATED_LETTER.test(letters)
  );
}

/**
 * Keeps the words a person would accept as read from the picture: dictionary words of three letters or more read
 * with high confidence, and words shaped like a brand or product name read with very high confidence. Labels are
 * lowercase, in reading order, each once; punctuation around a word is dropped, and anything with digits or
 * inner symbols is not a word. A tag's confidence is 0.5 at the word's threshold and 1 at a certain read.
 */
export function keepReadableWords(words: readonly ReadWord[], dictionary: ReadonlySet<string>): VisionTag[] {
  const kept = new Map<string, number>();
  for (const word of words) {
    const letters = word.text.replace(/^[^A-Za-z]+|[^A-Za-z]+$/g, '');
    if (letters.length < MIN_LETTERS || !/^[A-Za-z]+$/.test(letters)) continue;
    const label = letters.toLowerCase();
    const threshold = dictionary.has(label)
      ? DICTIONARY_WORD_MIN_CONFIDENCE
      : looksLikeName(letters)
        ? NAME_MIN_CONFIDENCE
        : undefined;
    if (threshold === undefined || word.confidence < threshold) continue;
    const confidence = confidenceBeyond(word.confidence, threshold, 100);
    kept.set(label, Math.max(confidence, kept.get(label) ?? 0));
  }
  return [...kept].map(([label, confidence]) => ({ label, confidence, source: 'text' }));
}
