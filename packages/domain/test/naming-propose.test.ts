import type { VisionTag } from '@renamer/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILENAME_REJECTIONS, isStopWord, normalizeFilename, personTags, proposeName } from '../src';
import { locale, tags } from './naming-arbitraries';

const jpeg = { format: 'jpeg', locale: 'en' } as const;

function named(tagList: readonly VisionTag[], options: Parameters<typeof proposeName>[1] = jpeg): string {
  const proposal = proposeName(tagList, options);
  if (!proposal.ok) throw new Error(`no name: ${proposal.reason}`);
  return proposal.filename;
}

describe('proposeName from realistic signals', () => {
  const shop: VisionTag[] = [
    ...personTags({
      keywords: ['ceramic mug'],
      context: 'Handmade ceramic mugs for our coffee shop',
      originalFilename: 'IMG_4411.JPG',
      locale: 'en',
    }),
    { label: 'cup', confidence: 0.82, source: 'objects' },
    { label: 'dining table', confidence: 0.71, source: 'objects' },
    { label: 'bottle', confidence: 0.41, source: 'objects' },
    { label: 'red', confidence: 0.8, source: 'colour' },
    { label: 'white', confidence: 0.6, source: 'colour' },
    { label: 'canon eos r5', confidence: 1, source: 'camera' },
  ];

  it('names a shop photo after the keyword, then what the detector saw; no shaky object, no camera', () => {
    const proposal = proposeName(shop, jpeg);
    expect(proposal).toMatchObject({
      ok: true,
      filename: 'ceramic-mug-cup-dining-table.jpg',
      words: ['ceramic', 'mug', 'cup', 'dining', 'table'],
      seo: { score: 100 },
    });
  });

  it('puts a confident label read in the picture before the objects', () => {
    const withLabel: VisionTag[] = [...shop, { label: 'acme', confidence: 0.93, source: 'text' }];
    expect(named(withLabel)).toBe('ceramic-mug-acme-cup-dining-table.jpg');
    const misread: VisionTag[] = [...shop, { label: 'acrne', confidence: 0.45, source: 'text' }];
    expect(named(misread)).toBe('ceramic-mug-cup-dining-table.jpg');
  });

  it('names a landscape from colour, light and scene alone, colours first, without guessing an object', () => {
    const landscape: VisionTag[] = [
      { label: 'sky', confidence: 0.9, source: 'scene' },
      { label: 'sunset', confidence: 0.78, source: 'scene' },
      { label: 'orange', confidence: 0.7, source: 'colour' },
      { label: 'purple', confidence: 0.55, source: 'colour' },
      { label: 'teal', confidence: 0.52, source: 'colour' },
      { label: 'kite', confidence: 0.38, source: 'objects' },
      { label: '2023:08:14 20:11:00', confidence: 1, source: 'date' },
    ];
    expect(named(landscape)).toBe('orange-purple-sky-sunset.jpg');
  });

  it("keeps a model's phrase whole, stop word inside, and lets colours trail a subject only while words are few", () => {
    expect(named([{ label: 'red coffee cup on wooden table', confidence: 0.9, source: 'llm' }])).toBe(
      'red-coffee-cup-on-wooden-table.jpg',
    );
    expect(
      named([
        { label: 'cat', confidence: 0.9, source: 'objects' },
        { label: 'black', confidence: 0.8, source: 'colour' },
        { label: 'white', confidence: 0.7, source: 'colour' },
      ]),
    ).toBe('cat-black-white.jpg');
  });

  it('reads what a person named the file, without the editor’s words', () => {
    const tagsOfName = personTags({
      keywords: [],
      context: null,
      originalFilename: 'Blue_Vase-final-v2 (1).jpg',
      locale: 'en',
    });
    expect(named(tagsOfName)).toBe('blue-vase.jpg');
  });

  it('falls back on the place and the date when the pixels say little', () => {
    expect(
      named([
        { label: 'fog', confidence: 0.7, source: 'scene' },
        { label: '2023:11:02 07:45:10', confidence: 1, source: 'date' },
      ]),
    ).toBe('fog-november-2023.jpg');
    expect(
      named([
        { label: 'snow', confidence: 0.8, source: 'scene' },
        { label: 'innsbruck austria', confidence: 0.9, source: 'place' },
        { label: 'white', confidence: 0.9, source: 'colour' },
      ]),
    ).toBe('white-snow-innsbruck-austria.jpg');
  });

  it("keeps a photographer's title whole and adds their keywords, ahead of what the pixels say", () => {
    const titled: VisionTag[] = [
      { label: 'morning fog over lake bled', confidence: 0.95, source: 'title' },
      { label: 'slovenia', confidence: 0.9, source: 'file-keywords' },
      { label: 'alps', confidence: 0.9, source: 'file-keywords' },
      { label: 'boat', confidence: 0.7, source: 'objects' },
      { label: 'fog', confidence: 0.8, source: 'scene' },
      { label: 'nikon d850', confidence: 1, source: 'camera' },
    ];
    expect(named(titled)).toBe('morning-fog-over-lake-bled-slovenia.jpg');
    expect(named(titled, { ...jpeg, maxWords: 4 })).toBe('morning-fog-lake-bled.jpg');
  });

  it("splits a photographer's long description at its stop words to fit", () => {
    expect(
      named([
        {
          label: 'A grey heron fishing at dawn in the marshes of the Camargue',
          confidence: 0.9,
          source: 'description',
        },
      ]),
    ).toBe('grey-heron-fishing-dawn-marshes-camargue.jpg');
  });

  it('writes the words of the locale as its language does', () => {
    const german = personTags({
      keywords: ['Grüne Tasse', 'Küche'],
      context: null,
      originalFilename: null,
      locale: 'de',
    });
    expect(named(german, { format: 'webp', locale: 'de' })).toBe('gruene-tasse-kueche.webp');
    expect(named(german, { format: 'webp', locale: 'sv' })).toBe('grune-tasse-kuche.webp');
  });

  it('never repeats a word in another form', () => {
    expect(
      named([
        { label: 'cups', confidence: 1, source: 'keywords' },
        { label: 'cup', confidence: 0.9, source: 'objects' },
        { label: 'cloudy sky', confidence: 0.9, source: 'llm' },
        { label: 'cloud', confidence: 0.9, source: 'scene' },
      ]),
    ).toBe('cups-cloudy-sky.jpg');
  });

  it('refuses, saying why, when nothing may be said', () => {
    expect(proposeName([], jpeg)).toEqual({ ok: false, reason: 'empty' });
    expect(
      proposeName(
        [
          { label: 'photo', confidence: 1, source: 'keywords' },
          { label: 'person', confidence: 0.3, source: 'objects' },
          { label: 'sony dsc', confidence: 1, source: 'camera' },
        ],
        jpeg,
      ),
    ).toEqual({ ok: false, reason: 'empty' });
    expect(proposeName([{ label: 'con', confidence: 1, source: 'keywords' }], jpeg)).toEqual({
      ok: false,
      reason: 'reserved_name',
    });
  });
});

describe('a name of fewer than three words', () => {
  const tag = (label: string, source: VisionTag['source'], confidence = 0.8): VisionTag => ({
    label,
    source,
    confidence,
  });
  const facts = { originalFilename: 'IMG_5101.JPG', width: 4000, height: 3000, capturedAt: '2024-06-01T10:00:00' };

  it('is completed with the kind of picture (one only), its light, then its colours', () => {
    const tags = [
      tag('dog', 'objects'),
      tag('portrait', 'composition', 0.7),
      tag('close-up', 'composition', 0.6),
      tag('low light', 'light', 0.6),
      tag('brown', 'colour', 0.7),
    ];
    expect(named(tags, { ...jpeg, facts })).toBe('dog-portrait-low-light.jpg');
    expect(named([tag('dog', 'objects'), tag('brown', 'colour')], { ...jpeg, facts })).toBe(
      'dog-brown-horizontal-format.jpg',
    );
  });

  it("ends with the frame's shape and the month, never a camera's name", () => {
    expect(named([], { ...jpeg, facts })).toBe('horizontal-format-june-2024.jpg');
    expect(named([tag('blue', 'colour')], { ...jpeg, facts: { ...facts, width: 3000, height: 4000 } })).toBe(
      'blue-vertical-format.jpg',
    );
  });
});

describe('proposeName on any input', () => {
  it('gives a name that passes the filename rules as it stands, or a rejection with a reason', () => {
    fc.assert(
      fc.property(
        tags,
        locale,
        fc.option(
          fc.oneof(fc.integer({ min: -2, max: 10 }), fc.constant(Number.NaN), fc.constant(Number.POSITIVE_INFINITY)),
          { nil: undefined },
        ),
        (tagList, loc, maxWords) => {
          const options = { format: 'png' as const, locale: loc, maxWords };
          const proposal = proposeName(tagList, options);
          if (!proposal.ok) {
            expect(Object.keys(FILENAME_REJECTIONS)).toContain(proposal.reason);
            return;
          }
          expect(normalizeFilename(proposal.stem, options)).toEqual({
            ok: true,
            stem: proposal.stem,
            filename: proposal.filename,
          });
          expect(proposal.filename).toBe(`${proposal.stem}.png`);
          expect(proposal.words).toEqual(proposal.stem.split('-'));
          expect(proposal.words.length).toBeLessThanOrEqual(
            Number.isFinite(maxWords) ? Math.min(6, Math.max(1, maxWords!)) : 6,
          );
          expect(proposal.stem.length).toBeLessThanOrEqual(60);
          expect(new Set(proposal.words).size).toBe(proposal.words.length);
          expect(isStopWord(proposal.words[0]!, loc)).toBe(false);
          expect(isStopWord(proposal.words.at(-1)!, loc)).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('lets no tag below its source threshold, and no camera tag, into the name', () => {
    const weak = fc.record({
      label: fc.constantFrom('zebra', 'giraffe', 'umbrella'),
      confidence: fc.double({ min: 0, max: 0.49, noNaN: true }),
      source: fc.constantFrom(
        'objects' as const,
        'text' as const,
        'scene' as const,
        'colour' as const,
        'title' as const,
      ),
    });
    const camera = fc.record({
      label: fc.constantFrom('zebra', 'giraffe', 'umbrella'),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      source: fc.constant('camera' as const),
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(weak, camera), { maxLength: 6 }), (noise) => {
        const proposal = proposeName([{ label: 'lighthouse', confidence: 1, source: 'keywords' }, ...noise], jpeg);
        expect(proposal).toMatchObject({ ok: true, stem: 'lighthouse' });
      }),
    );
  });
});
