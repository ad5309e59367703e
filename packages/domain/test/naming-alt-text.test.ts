import type { VisionTag } from '@renamer/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALT_TEXT_FORBIDDEN_PHRASES, altText, MAX_ALT_TEXT_LENGTH, proposeName, toAsciiWords } from '../src';
import { label, locale, tags } from './naming-arbitraries';

const tag = (text: string, source: VisionTag['source'], confidence = 0.8): VisionTag => ({
  label: text,
  source,
  confidence,
});
const en = { filenameWords: [] as string[], locale: 'en' };

describe('altText', () => {
  it('describes a shop photo from its subjects and colours', () => {
    const shop = [
      tag('ceramic mug', 'keywords', 1),
      tag('handmade ceramic mugs', 'context', 1),
      tag('cup', 'objects', 0.82),
      tag('dining table', 'objects', 0.71),
      tag('bottle', 'objects', 0.4),
      tag('red', 'colour'),
      tag('white', 'colour', 0.6),
      tag('acme', 'text', 0.93),
      tag('canon eos r5', 'camera', 1),
    ];
    expect(altText(shop, { filenameWords: ['ceramic', 'mug', 'acme', 'cup', 'dining', 'table'], locale: 'en' })).toBe(
      'Ceramic mug, cup and dining table, with the text "acme" in red and white tones.',
    );
  });

  it('describes a landscape from its scene, colours and place', () => {
    const landscape = [
      tag('sunset', 'scene'),
      tag('clouds', 'scene', 0.7),
      tag('orange', 'colour'),
      tag('lisbon portugal', 'place'),
    ];
    expect(altText(landscape, en)).toBe('Sunset and clouds in orange tones near Lisbon Portugal.');
  });

  it("takes the photographer's description when it is one short sentence, without announcing an image", () => {
    expect(altText([tag('Photo of a heron fishing at dawn', 'description', 0.9), tag('bird', 'objects')], en)).toBe(
      'A heron fishing at dawn.',
    );
    const long = `A heron ${'standing very still '.repeat(8)}in the reeds.`;
    expect(altText([tag(long, 'description', 0.9), tag('bird', 'objects')], en)).toBe('Bird.');
  });

  it('says only colours when only colours are known, and nothing when nothing is', () => {
    expect(altText([tag('blue', 'colour'), tag('white', 'colour', 0.7)], en)).toBe('Blue and white tones.');
    expect(
      altText([tag('person', 'objects', 0.3), tag('nikon d850', 'camera', 1), tag('2023-01-01', 'date', 1)], en),
    ).toBeNull();
    expect(altText([], en)).toBeNull();
  });

  it('never only repeats the filename', () => {
    const mug = [tag('red shoes', 'keywords', 1)];
    expect(altText(mug, { filenameWords: ['red', 'shoes'], locale: 'en' })).toBeNull();
    expect(altText([...mug, tag('grass', 'scene')], { filenameWords: ['red', 'shoes'], locale: 'en' })).toBe(
      'Red shoes with grass.',
    );
  });

  it('keeps within 125 characters, dropping details before the subject', () => {
    const busy = [
      tag('vintage mechanical typewriter with spare ribbons', 'keywords', 1),
      tag('antique writing desk', 'llm', 0.9),
      tag('brass reading lamp', 'llm', 0.9),
      tag('window light', 'scene'),
      tag('olivetti lettera', 'text', 0.95),
      tag('brown', 'colour'),
      tag('san gimignano italy', 'place'),
    ];
    const text = altText(busy, en);
    expect(text).toBe(
      'Vintage mechanical typewriter with spare ribbons, antique writing desk and brass reading lamp with window light.',
    );
    expect(text!.length).toBeLessThanOrEqual(MAX_ALT_TEXT_LENGTH);
  });

  it('holds for any tags: at most 125 characters, no phrase announcing an image, never the filename again', () => {
    const announcing = fc
      .array(
        fc.constantFrom(
          'photo',
          'image',
          'picture',
          'photograph',
          'telephoto',
          'of',
          'OF',
          'offer',
          'Photo  of',
          'a',
          'cat',
        ),
        { maxLength: 8 },
      )
      .map((words) => words.join(' '));
    const anyTag = fc.record({
      label: fc.oneof(label, announcing),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      source: fc.constantFrom(
        'keywords' as const,
        'description' as const,
        'objects' as const,
        'text' as const,
        'scene' as const,
        'colour' as const,
        'place' as const,
        'llm' as const,
      ),
    });
    fc.assert(
      fc.property(fc.array(anyTag, { maxLength: 8 }), tags, locale, (first, more, loc) => {
        const all = [...first, ...more];
        const proposal = proposeName(all, { format: 'jpeg', locale: loc });
        const filenameWords = proposal.ok ? proposal.words : [];
        const text = altText(all, { filenameWords, locale: loc });
        if (text === null) return;
        expect(text.length).toBeGreaterThan(0);
        expect(text.length).toBeLessThanOrEqual(MAX_ALT_TEXT_LENGTH);
        const spaced = text.toLowerCase().replace(/\s+/g, ' ');
        for (const phrase of ALT_TEXT_FORBIDDEN_PHRASES) expect(spaced).not.toContain(phrase);
        expect(toAsciiWords(text, loc).join(' ')).not.toBe(filenameWords.join(' '));
      }),
      { numRuns: 400 },
    );
  });
});
