import type { VisionTag } from '@renamer/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BatchItem,
  hashDistance,
  NEAR_DUPLICATE_DISTANCE,
  nameBatch,
  normalizeFilename,
  personTags,
} from '../src';
import { locale, tags } from './naming-arbitraries';

const keywords = personTags({ keywords: ['road bike'], context: null, originalFilename: 'DSC01234.JPG', locale: 'en' });
const tag = (label: string, source: VisionTag['source'], confidence = 0.8): VisionTag => ({
  label,
  source,
  confidence,
});

function filenames(items: readonly BatchItem[], taken?: ReadonlySet<string>): Record<string, string> {
  const names: Record<string, string> = {};
  for (const [id, proposal] of nameBatch(items, { locale: 'en', taken })) {
    names[id] = proposal.ok ? proposal.filename : `(${proposal.reason})`;
  }
  return names;
}

describe('hashDistance', () => {
  it('counts the differing bits of two 64-bit hashes', () => {
    expect(hashDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hashDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hashDistance('8000000000000001', '0000000000000000')).toBe(2);
    expect(hashDistance('2C8F1336CFD32204', '2c8f1336cfd32205')).toBe(1);
  });

  it('agrees with counting bit by bit', () => {
    const hash = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((value) => value.toString(16).padStart(16, '0'));
    fc.assert(
      fc.property(hash, hash, (a, b) => {
        const expected = [...(BigInt(`0x${a}`) ^ BigInt(`0x${b}`)).toString(2)].filter((bit) => bit === '1').length;
        expect(hashDistance(a, b)).toBe(expected);
        expect(hashDistance(b, a)).toBe(expected);
      }),
    );
  });

  it('refuses what is not a 64-bit hash', () => {
    expect(() => hashDistance('abc', '0000000000000000')).toThrow(RangeError);
    expect(() => hashDistance('000000000000000g', '0000000000000000')).toThrow(RangeError);
  });
});

describe('nameBatch', () => {
  const street = [...keywords, tag('bicycle', 'objects', 0.9), tag('street', 'scene', 0.7)];

  it('gives three near-duplicates one stem and tells them apart by a word only each has', () => {
    const items: BatchItem[] = [
      { id: 'a', format: 'jpeg', tags: [...street, tag('red', 'colour')], perceptualHash: '2c8f1336cfd32204' },
      { id: 'b', format: 'jpeg', tags: [...street, tag('blue', 'colour')], perceptualHash: '2c8f1336cfd32214' },
      {
        id: 'c',
        format: 'jpeg',
        tags: [...street, tag('red', 'colour'), tag('dog', 'objects', 0.75)],
        perceptualHash: '2c8f1336cfd3a204',
      },
      {
        id: 'far',
        format: 'png',
        tags: [...keywords, tag('mountain', 'llm'), tag('lake', 'llm')],
        perceptualHash: 'c0d084048ca87060',
      },
    ];
    expect(filenames(items)).toEqual({
      a: 'road-bike-bicycle-street-red.jpg',
      b: 'road-bike-bicycle-street-blue.jpg',
      c: 'road-bike-bicycle-street-dog.jpg',
      far: 'road-bike-mountain-lake.png',
    });
  });

  it('falls back on -2 when near-duplicates have nothing to tell them apart, within six words in all', () => {
    const same = [...keywords, tag('bicycle', 'objects'), tag('street lamp', 'objects'), tag('night', 'scene')];
    const items: BatchItem[] = ['a', 'b', 'c'].map((id) => ({
      id,
      format: 'jpeg',
      tags: same,
      perceptualHash: 'fbfd159f3f3f3f0f',
    }));
    const names = filenames(items);
    expect(names).toEqual({
      a: 'road-bike-bicycle-street-lamp.jpg',
      b: 'road-bike-bicycle-street-lamp-2.jpg',
      c: 'road-bike-bicycle-street-lamp-3.jpg',
    });
  });

  it('names shots of one subject alike when their hashes are only fairly close', () => {
    const near = (id: string, hash: string, extra: VisionTag): BatchItem => ({
      id,
      format: 'jpeg',
      tags: [tag('lighthouse', 'llm', 0.9), tag('rocks', 'llm', 0.7), tag('sea', 'llm', 0.7), extra],
      perceptualHash: hash,
    });
    // 16 bits apart: too far for a near-duplicate, close enough with the same subject.
    const a = near('a', '0707031f3f3f6f07', tag('dusk', 'scene'));
    const b = near('b', '0707031f3f3fe0f8', tag('fog', 'scene'));
    expect(hashDistance(a.perceptualHash!, b.perceptualHash!)).toBeGreaterThan(NEAR_DUPLICATE_DISTANCE);
    expect(filenames([a, b])).toEqual({ a: 'lighthouse-rocks-sea-dusk.jpg', b: 'lighthouse-rocks-sea-fog.jpg' });
    const stranger = { ...b, tags: [tag('tractor', 'objects'), tag('field', 'scene'), tag('fog', 'scene')] };
    expect(filenames([a, stranger])).toEqual({ a: 'lighthouse-rocks-sea-dusk.jpg', b: 'tractor-field-fog.jpg' });
  });

  it('does not trust the hashes of flat frames, which all look alike', () => {
    const flat = (id: string, label: string): BatchItem => ({
      id,
      format: 'jpeg',
      tags: [tag('wall', 'llm'), tag(label, 'colour')],
      perceptualHash: '0000000000000000',
    });
    expect(filenames([flat('a', 'white'), flat('b', 'grey')])).toEqual({ a: 'wall-white.jpg', b: 'wall-grey.jpg' });
  });

  it('avoids the names already taken in the batch', () => {
    const items: BatchItem[] = [{ id: 'a', format: 'jpeg', tags: street }];
    expect(filenames(items, new Set(['road-bike-bicycle-street.jpg']))).toEqual({
      a: 'road-bike-bicycle-street-2.jpg',
    });
  });

  it('answers a rejection for an image nothing can be said about', () => {
    expect(filenames([{ id: 'a', format: 'jpeg', tags: [tag('person', 'objects', 0.2)] }])).toEqual({ a: '(empty)' });
  });

  const hash = fc.option(
    fc.constantFrom('2c8f1336cfd32204', '2c8f1336cfd32205', 'fbfd159f3f3f3f0f', '0000000000000000', 'not-a-hash'),
    { nil: undefined },
  );
  const item = fc.record({ format: fc.constantFrom('jpeg' as const, 'png' as const), tags, perceptualHash: hash });

  it('gives every image of any batch its own name within the rules, deterministically', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 10 }),
        locale,
        fc.array(fc.constantFrom('sky.jpg', 'sky-2.jpg', 'red.png')),
        (drawn, loc, taken) => {
          const items = drawn.map((entry, index) => ({ ...entry, id: String(index) }));
          const proposals = nameBatch(items, { locale: loc, taken: new Set(taken) });
          expect([...proposals.keys()]).toEqual(items.map((entry) => entry.id));
          const names = [...proposals.values()].flatMap((proposal) => (proposal.ok ? [proposal] : []));
          expect(new Set(names.map((proposal) => proposal.filename)).size).toBe(names.length);
          for (const proposal of names) {
            expect(taken).not.toContain(proposal.filename);
            expect(proposal.words.length).toBeLessThanOrEqual(6);
            expect(proposal.stem.length).toBeLessThanOrEqual(60);
            expect(normalizeFilename(proposal.stem, { format: 'jpeg', locale: loc })).toMatchObject({
              stem: proposal.stem,
            });
          }
          expect(nameBatch(items, { locale: loc, taken: new Set(taken) })).toEqual(proposals);
        },
      ),
      { numRuns: 200 },
    );
  });
});
