import { describePixels, perceptualHash } from '@renamer/vision';
import { tuningPhotos } from '@renamer/vision/testing';
import { expect, it } from 'vitest';
import { decodeImage } from '../src/decoded-image';

it('describes and hashes a 1024-px picture in a few milliseconds', async () => {
  const [photo] = await tuningPhotos();
  const image = await decodeImage(photo!.path);
  expect(Math.max(image.width, image.height)).toBe(1024);
  const runs = 20;
  // Fresh copies: the thumbnail is made once per decoded image, and each run must pay for it.
  const copies = Array.from({ length: runs + 3 }, () => ({ ...image }));
  for (const copy of copies.slice(0, 3)) describePixels(copy);
  const started = performance.now();
  for (const copy of copies.slice(3)) {
    describePixels(copy);
    perceptualHash(copy);
  }
  const perImage = (performance.now() - started) / runs;
  // About 5 ms here on a busy 2-core machine; the bound leaves room for a slower one.
  expect(perImage).toBeLessThan(40);
});
