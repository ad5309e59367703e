import { TAG_SOURCES, type VisionTag } from '@renamer/contracts';
import fc from 'fast-check';

export const LOCALES = ['en', 'en-GB', 'de', 'de-AT', 'fr', 'es', 'pt-BR', 'it', 'nl', 'pl', 'sv', 'tr', 'da', 'ja'];

/** Words a real tag may hold, and the ones that must never pass through: stop, generic and camera words. */
const WORDS = [
  'red',
  'coffee cup',
  'wooden table',
  'cup of tea',
  'sunset',
  'sky',
  'Grüße',
  'Işık',
  'Łódź',
  'smørrebrød',
  'the',
  'of',
  'and',
  'on',
  'photo',
  'image',
  'picture',
  'photograph',
  'photo of',
  'image of a',
  'IMG_1234',
  'DSC01234',
  'con',
  'nul',
  '2024',
  '2024-06-01',
  'x'.repeat(70),
  '東京',
  '',
  '  ',
  '\u202egpj',
  'a/b',
];

export const label = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((words) => words.join(' ')),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

export const tag: fc.Arbitrary<VisionTag> = fc.record({
  label,
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  source: fc.constantFrom(...TAG_SOURCES),
});

export const tags = fc.array(tag, { maxLength: 12 });
export const locale = fc.constantFrom(...LOCALES);
