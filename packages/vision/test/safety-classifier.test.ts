import type { ImageSafety } from '@renamer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DecodedImage, decodeImage } from '../src/decoded-image';
import { createSafetyClassifier, DEFAULT_SAFETY_THRESHOLD, type SafetyClassifier } from '../src/models';
import { tfjsRuntime } from '../src/models/tfjs-runtime';
import { tuningPhotos } from '../src/testing';

let classifier: SafetyClassifier;
let images: { file: string; image: DecodedImage }[];
let judged: { file: string; safety: ImageSafety }[];

beforeAll(async () => {
  classifier = await createSafetyClassifier();
  images = await Promise.all(
    (await tuningPhotos()).map(async (photo) => ({ file: photo.file, image: await decodeImage(photo.path) })),
  );
  judged = [];
  for (const { file, image } of images) judged.push({ file, safety: await classifier.classify(image) });
}, 180_000);

afterAll(() => classifier.close());

describe('createSafetyClassifier', () => {
  it('judges every fixture photograph safe, its score below the threshold', () => {
    for (const { file, safety } of judged) {
      expect(safety, file).toEqual({ unsafe: false, score: expect.any(Number) });
      expect(safety.score, file).toBeGreaterThanOrEqual(0);
      expect(safety.score, file).toBeLessThan(DEFAULT_SAFETY_THRESHOLD);
    }
  });

  it('does not count swimwear-like "Sexy" as unsafe: the wine still life stays far below the threshold', () => {
    // nsfwjs gives this bean-bag still life about 0.68 "Sexy"; the explicit classes stay near zero.
    const wine = judged.find((entry) => entry.file === 'wine.jpg');
    expect(wine?.safety.score).toBeLessThan(0.1);
  });

  it('applies the threshold it is given', async () => {
    const highest = judged.reduce((top, entry) => (entry.safety.score > top.safety.score ? entry : top));
    const strict = await createSafetyClassifier({ threshold: highest.safety.score });
    try {
      const image = images.find((entry) => entry.file === highest.file)!.image;
      expect(await strict.classify(image)).toEqual({ unsafe: true, score: highest.safety.score });
    } finally {
      await strict.close();
    }
    await expect(createSafetyClassifier({ threshold: 0 })).rejects.toThrow(RangeError);
  });

  it('frees its weights on close and refuses to classify afterwards', async () => {
    const tf = await tfjsRuntime();
    const before = tf.memory().numTensors;
    const other = await createSafetyClassifier();
    expect(tf.memory().numTensors).toBeGreaterThan(before + 50);
    await other.close();
    expect(tf.memory().numTensors).toBe(before);
    await expect(other.classify(images[0]!.image)).rejects.toThrow(/closed/);
  });
});
