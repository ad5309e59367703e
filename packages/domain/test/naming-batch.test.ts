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
  shotKey,
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
  const item = fc.record({
    format: fc.constantFrom('jpeg' as const, 'png' as const, 'cr2' as const, 'dng' as const),
    tags,
    perceptualHash: hash,
    shot: fc.constantFrom(null, 'shot-a', 'shot-b'),
  });

  it('gives every image of any batch its own name within the rules, deterministically', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 10 }),
        locale,
        fc.array(fc.constantFrom('sky.jpg', 'sky-2.jpg', 'red.png', 'sky.cr2')),
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

describe('RAW and JPEG of one shot', () => {
  const camera = { make: 'Canon', model: 'Canon EOS 350D DIGITAL', dateTimeOriginal: '2005-08-03T18:59:18' };
  const bridge = [...keywords, tag('bridge', 'objects', 0.9), tag('blue', 'colour')];

  it('keys a shot by the uploaded stem, the camera and the capture time, all three required', () => {
    const key = shotKey({ originalFilename: 'IMG_0412.CR2', exif: camera });
    expect(key).not.toBeNull();
    expect(shotKey({ originalFilename: 'img_0412.jpg', exif: camera })).toBe(key);
    expect(shotKey({ originalFilename: 'IMG_0413.JPG', exif: camera })).not.toBe(key);
    expect(
      shotKey({ originalFilename: 'IMG_0412.JPG', exif: { ...camera, dateTimeOriginal: '2005-08-03T18:59:19' } }),
    ).not.toBe(key);
    expect(shotKey({ originalFilename: 'IMG_0412.JPG', exif: { ...camera, model: 'Canon EOS 5D' } })).not.toBe(key);
    expect(
      shotKey({ originalFilename: 'IMG_0412.JPG', exif: { make: 'Canon', model: 'Canon EOS 350D DIGITAL' } }),
    ).toBeNull();
    expect(shotKey({ originalFilename: 'IMG_0412.JPG', exif: null })).toBeNull();
  });

  it('gives the RAW file the JPEG’s stem, with its own extension, whatever the RAW’s own analysis said', () => {
    const items: BatchItem[] = [
      { id: 'raw', format: 'cr2', tags: [...keywords, tag('sky', 'objects', 0.9)], shot: 'shot' },
      { id: 'jpeg', format: 'jpeg', tags: bridge, shot: 'shot' },
      { id: 'other', format: 'jpeg', tags: [...keywords, tag('sky', 'objects', 0.9)], shot: null },
    ];
    const names = filenames(items);
    expect(names.jpeg).toBe('road-bike-bridge.jpg');
    expect(names.raw).toBe('road-bike-bridge.cr2');
    expect(names.other).toBe('road-bike-sky.jpg');
  });

  it('moves the whole shot to the next free stem when the RAW’s name is taken', () => {
    const items: BatchItem[] = [
      { id: 'jpeg', format: 'jpeg', tags: bridge, shot: 'shot' },
      { id: 'raw', format: 'cr2', tags: bridge, shot: 'shot' },
    ];
    expect(filenames(items, new Set(['road-bike-bridge.cr2']))).toEqual({
      jpeg: 'road-bike-bridge-2.jpg',
      raw: 'road-bike-bridge-2.cr2',
    });
  });

  it('does not pair two files of one format, nor files without a RAW among them', () => {
    const items: BatchItem[] = [
      { id: 'a', format: 'jpeg', tags: bridge, shot: 'shot' },
      { id: 'b', format: 'jpeg', tags: [...keywords, tag('sky', 'objects', 0.9)], shot: 'shot' },
      { id: 'c', format: 'png', tags: [...keywords, tag('tree', 'objects', 0.9)], shot: 'other' },
      { id: 'd', format: 'jpeg', tags: [...keywords, tag('dog', 'objects', 0.9)], shot: 'other' },
    ];
    expect(filenames(items)).toEqual({
      a: 'road-bike-bridge.jpg',
      b: 'road-bike-sky.jpg',
      c: 'road-bike-tree.png',
      d: 'road-bike-dog.jpg',
    });
  });
});
