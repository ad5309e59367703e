import { SEO_RULES, type VisionTag } from '@renamer/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEO_WEIGHTS, scoreFilename } from '../src';
import { label, locale, tags } from './naming-arbitraries';

const tagList: VisionTag[] = [
  { label: 'ceramic mug', confidence: 1, source: 'keywords' },
  { label: 'cup', confidence: 0.8, source: 'objects' },
  { label: 'dining table', confidence: 0.7, source: 'objects' },
  { label: 'red', confidence: 0.8, source: 'colour' },
];
const options = { tags: tagList, locale: 'en' };

function failed(filename: string, scoring = options): string[] {
  return scoreFilename(filename, scoring)
    .reasons.filter((reason) => !reason.passed)
    .map((reason) => reason.rule);
}

describe('scoreFilename', () => {
  it('weighs the rules to 100 in all', () => {
    expect(Object.values(SEO_WEIGHTS).reduce((sum, weight) => sum + weight, 0)).toBe(100);
    expect(Object.keys(SEO_WEIGHTS).sort()).toEqual([...SEO_RULES].sort());
  });

  it('gives a descriptive, short, hyphenated lowercase name with the keyword full marks, one reason per rule', () => {
    const score = scoreFilename('red-ceramic-mug-on-dining-table.jpg', options);
    expect(score.score).toBe(100);
    expect(score.reasons.map((reason) => reason.rule)).toEqual([...SEO_RULES]);
    expect(score.reasons.every((reason) => reason.detail.length > 0)).toBe(true);
  });

  it.each<[string, string[], number]>([
    [
      'IMG_4411.JPG',
      ['descriptive', 'hyphenated', 'lowercase', 'no_generic_words', 'keyword_present', 'consistent_with_tags'],
      20,
    ],
    ['ceramic-mug.jpg', ['descriptive'], 75],
    ['Ceramic Mug On Dining Table.jpg', ['hyphenated', 'lowercase'], 85],
    ['ceramic_mug_dining_table.jpg', ['hyphenated'], 90],
    ['ceramic-mug-cup-dining-table-red-shelf-kitchen.jpg', ['concise'], 90],
    ['ceramic-mug-mugs-cup.jpg', ['no_repeated_words'], 90],
    ['photo-ceramic-mug-cup-table.jpg', ['no_generic_words'], 85],
    ['red-cup-dining-table.jpg', ['keyword_present'], 90],
    ['blue-sports-car-ceramic-mug.jpg', ['consistent_with_tags'], 85],
  ])('%s fails %j', (filename, rules, score) => {
    expect(failed(filename)).toEqual(rules);
    expect(scoreFilename(filename, options).score).toBe(score);
  });

  it('says which words went wrong', () => {
    const reasons = scoreFilename('DSC_0042-ceramic-mug-mugs', options).reasons;
    expect(reasons.find((reason) => reason.rule === 'no_generic_words')?.detail).toContain('dsc, 0042');
    expect(reasons.find((reason) => reason.rule === 'no_repeated_words')?.detail).toContain('mugs');
  });

  it('does not hold missing keywords or tags against a name', () => {
    expect(scoreFilename('lighthouse-at-dusk-brittany.jpg', { tags: [], locale: 'en' }).score).toBe(100);
  });

  it('counts a year as a date, not a camera counter', () => {
    const withoutKeywords = { ...options, tags: tagList.filter((tag) => tag.source !== 'keywords') };
    expect(failed('lake-bled-morning-fog-2023.jpg', withoutKeywords)).toEqual(['consistent_with_tags']);
  });

  it('does not call a name of a date and a place alone descriptive, and says what would help', () => {
    const seen = { tags: [{ label: 'Lisbon', confidence: 0.9, source: 'place' as const }], locale: 'en' };
    const lisbon = scoreFilename('lisbon-june-2015.jpg', seen);
    expect(lisbon.score).toBeLessThan(100);
    const detail = lisbon.reasons.find((reason) => reason.rule === 'descriptive')!.detail;
    expect(detail).toContain('lisbon, june, 2015 say when or where');
    expect(detail).toMatch(/keywords or a context/i);
    expect(scoreFilename('coldripple-june-2015.jpg', { tags: [], locale: 'en' }).score).toBeLessThan(100);
    expect(failed('yellow-tram-on-hill-lisbon-june.jpg', seen)).not.toContain('descriptive');
  });

  it('does not call a name of words no dictionary or tag knows descriptive, nor one the analysis contradicts', () => {
    const unknown = scoreFilename('coldripple-skarvfjell-nordvik.jpg', { tags: [], locale: 'en' });
    expect(unknown.score).toBeLessThan(100);
    expect(unknown.reasons.find((reason) => reason.rule === 'descriptive')!.detail).toContain(
      'no dictionary or tag knows coldripple, skarvfjell, nordvik',
    );
    // A person's keyword is known, whatever the dictionary says; so is one unknown word among known ones.
    const keyword = [{ label: 'Skarvfjell', confidence: 1, source: 'keywords' as const }];
    expect(failed('skarvfjell-mountain-hut.jpg', { tags: keyword, locale: 'en' })).not.toContain('descriptive');
    expect(scoreFilename('lighthouse-at-dusk-brittany.jpg', { tags: [], locale: 'en' }).score).toBe(100);
    // Kept from the uploaded name, which the pixels do not bear out.
    const paintbrushes = {
      tags: [
        { label: 'wall art landscape print', confidence: 1, source: 'filename' as const },
        { label: 'paintbrush', confidence: 0.8, source: 'objects' as const },
        { label: 'blue', confidence: 0.7, source: 'colour' as const },
      ],
      locale: 'en',
    };
    expect(failed('wall-art-landscape-print.jpg', paintbrushes)).toEqual(['consistent_with_tags']);
  });

  it('reads the words of the locale', () => {
    const german = {
      tags: [{ label: 'Grüne Tasse', confidence: 1, source: 'keywords' as const }],
      locale: 'de',
    };
    expect(failed('gruene-tasse-auf-dem-tisch.jpg', german)).toEqual([]);
    expect(failed('foto-bild-kopie.jpg', german)).toContain('no_generic_words');
  });

  it('is deterministic and within 0 to 100 for any name', () => {
    const anyName = fc.oneof(
      label,
      fc.string({ maxLength: 120 }),
      fc.array(label).map((labels) => labels.join('-')),
    );
    fc.assert(
      fc.property(anyName, tags, locale, (filename, tagArray, loc) => {
        const scoring = { tags: tagArray, locale: loc };
        const first = scoreFilename(filename, scoring);
        expect(Number.isInteger(first.score)).toBe(true);
        expect(first.score).toBeGreaterThanOrEqual(0);
        expect(first.score).toBeLessThanOrEqual(100);
        expect(first.reasons.map((reason) => reason.rule)).toEqual([...SEO_RULES]);
        expect(first.score).toBe(
          first.reasons.reduce((sum, reason) => sum + (reason.passed ? SEO_WEIGHTS[reason.rule] : 0), 0),
        );
        expect(scoreFilename(filename, scoring)).toEqual(first);
      }),
      { numRuns: 400 },
    );
  });
});
