import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashDistance, NEAR_DUPLICATE_DISTANCE } from '@renamer/domain';
import { perceptualHash } from '@renamer/vision';
import { type FixturePhoto, tuningPhotos } from '@renamer/vision/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../src/decoded-image';

const MEASURED_ON = 22;

let dir: string;
let photos: FixturePhoto[];
let hashes: Map<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perceptual-hash-'));
  photos = await tuningPhotos();
  hashes = new Map();
  for (const photo of photos) hashes.set(photo.file, perceptualHash(await decodeImage(photo.path)));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const copies: [string, (image: sharp.Sharp) => sharp.Sharp][] = [
  ['640 px, JPEG quality 60', (image) => image.resize(640).jpeg({ quality: 60 })],
  ['300 px, WebP quality 50', (image) => image.resize(300).webp({ quality: 50 })],
  ['1600 px, JPEG quality 85, 15 % brighter', (image) => image.resize(1600).modulate({ brightness: 1.15 }).jpeg()],
];

describe('perceptualHash', () => {
  it('is 16 lowercase hex characters', () => {
    for (const hash of hashes.values()) expect(hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it.each(copies)('finds a copy resized and re-encoded (%s) within the near-duplicate distance', async (name, make) => {
    // The photographs the distance was measured on (name-batch.ts): each later one costs three re-encodes and
    // decodes, and would only repeat the measurement.
    for (const photo of photos.slice(0, MEASURED_ON)) {
      const copy = join(dir, `${photo.file}-${name.replace(/\W+/g, '-')}`);
      await make(sharp(photo.path)).toFile(copy);
      const distance = hashDistance(hashes.get(photo.file)!, perceptualHash(await decodeImage(copy)));
      expect(distance, photo.file).toBeLessThanOrEqual(NEAR_DUPLICATE_DISTANCE);
    }
  });

  it('keeps unrelated photographs further apart than the near-duplicate distance', () => {
    const files = [...hashes.keys()];
    for (const [i, a] of files.entries()) {
      for (const b of files.slice(i + 1)) {
        expect(hashDistance(hashes.get(a)!, hashes.get(b)!), `${a} / ${b}`).toBeGreaterThan(NEAR_DUPLICATE_DISTANCE);
      }
    }
  });
});
