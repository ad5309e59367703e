import { englishWords } from '@renamer/domain';
import { describe, expect, it } from 'vitest';
import { keepReadableWords } from '../src/ocr/word-filter';

const dictionary = englishWords();
const labelsOf = (words: { text: string; confidence: number }[]) =>
  keepReadableWords(words, dictionary).map((tag) => tag.label);

describe('keepReadableWords', () => {
  it('keeps dictionary words read with high confidence, lowercase and without punctuation', () => {
    expect(
      labelsOf([
        { text: 'Organic', confidence: 94 },
        { text: 'COFFEE,', confidence: 96 },
      ]),
    ).toEqual(['organic', 'coffee']);
  });

  it('drops what OCR makes of texture in photographs', () => {
    // Words tesseract read in the fixture photographs with the gate bypassed (see the README).
    const noise = [
      { text: 'lo', confidence: 68 },
      { text: '\\', confidence: 91 },
      { text: 'fet', confidence: 72 },
      { text: 'Mo', confidence: 63 },
      { text: '==', confidence: 80 },
      { text: 'il', confidence: 83 },
      { text: 'ad', confidence: 63 },
      { text: '4', confidence: 95 },
      { text: 'Bake', confidence: 80 },
    ];
    expect(labelsOf(noise)).toEqual([]);
  });

  it('keeps a name shaped like a brand only when read very surely', () => {
    expect(labelsOf([{ text: 'Lavazza', confidence: 95 }])).toEqual(['lavazza']);
    expect(labelsOf([{ text: 'Lavazza', confidence: 88 }])).toEqual([]);
  });

  it('does not take a run of consonants, mixed case or digits for a name', () => {
    const notNames = [
      { text: 'SBN', confidence: 97 },
      { text: 'Pfftk', confidence: 97 },
      { text: 'aBcDe', confidence: 97 },
      { text: 'B52s', confidence: 97 },
      { text: 'Zzzap', confidence: 97 },
    ];
    expect(labelsOf(notNames)).toEqual([]);
  });

  it('gives each word once, at its surest reading, with confidence 0.5 at the threshold and 1 at certainty', () => {
    const tags = keepReadableWords(
      [
        { text: 'roast', confidence: 85 },
        { text: 'Roast', confidence: 100 },
        { text: 'dark', confidence: 85 },
      ],
      dictionary,
    );
    expect(tags).toEqual([
      { label: 'roast', confidence: 1, source: 'text' },
      { label: 'dark', confidence: 0.5, source: 'text' },
    ]);
  });
});
