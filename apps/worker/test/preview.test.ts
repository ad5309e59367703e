import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@renamer/runtime';
import { previewObjectKey, userObjectPrefix } from '@renamer/storage';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataStep } from '../src/analysis/metadata-step';
import { createStepPipeline } from '../src/analysis/step-pipeline';
import { pixelsStep } from '../src/analysis/steps/pixels-step';
import { analyzeImageHandler } from '../src/handlers/analyze-image';
import { createHandlerFixture, type HandlerFixture, type StoredFile } from './support/handler-fixture';

let world: HandlerFixture;
beforeAll(async () => {
  world = await createHandlerFixture('preview');
}, 60_000);
afterAll(() => world?.close());

const attempt = { logger: createLogger('worker-test', process.env.LOG_LEVEL!), finalAttempt: false };
const PHOTO = fileURLToPath(new URL('../../../fixtures/photos/colorful-cups.jpg', import.meta.url));

/** The header and the pixel statistics: enough to see the colours the analysis found, and the preview. */
const handler = () =>
  analyzeImageHandler({
    images: world.repositories.images,
    batches: world.repositories.batches,
    store: world.store,
    tracker: world.tracker,
    analyzer: createStepPipeline([metadataStep, pixelsStep]),
    tempDir: world.workDir,
    refuseUnsafe: async () => false,
  });

const stored = async (key: string) => Buffer.concat(await (await world.store.get(key)).toArray());

/** Uploads the file, analyses it, and reads back its row and its stored preview. */
async function analysed(file: StoredFile) {
  const { user, batch, images } = await world.uploadBatch([file]);
  const image = images[0]!;
  await handler().handle({ imageId: image.id, batchId: batch.id }, attempt);
  const row = (await world.repositories.images.findById(image.id))!;
  const webp = await stored(previewObjectKey(user.id, image.id));
  return { user, batch, row, webp, preview: await sharp(webp).metadata() };
}

const colourTags = (row: { visionTags: { source: string; label: string }[] }) =>
  row.visionTags.filter((tag) => tag.source === 'colour').map((tag) => tag.label);

/** The mean colour of a region of the preview, as a person would name it. */
async function meanColour(webp: Buffer, region: { left: number; top: number; width: number; height: number }) {
  const pixels = await sharp(webp).extract(region).removeAlpha().raw().toBuffer();
  const sums = [0, 0, 0];
  for (let i = 0; i < pixels.length; i++) sums[i % 3]! += pixels[i]!;
  return sums.map((sum) => Math.round(sum / (pixels.length / 3)));
}

describe('the preview the analysis stores', () => {
  it('is a WebP of a rotated JPEG turned upright, 512 px on its long side, without metadata', async () => {
    // Stored landscape, red on the left and blue on the right; orientation 6 shows it turned a quarter clockwise,
    // so the person sees it portrait with the red on top.
    const bytes = await sharp({ create: { width: 1600, height: 800, channels: 3, background: 'blue' } })
      .composite([{ input: { create: { width: 800, height: 800, channels: 3, background: 'red' } }, left: 0, top: 0 }])
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Artist: 'Someone Private' } } })
      .toBuffer();

    const { row, webp, preview } = await analysed({ name: 'rotated.jpg', bytes, type: 'image/jpeg' });

    expect(row.status).toBe('ready');
    expect(preview).toMatchObject({ format: 'webp', width: 256, height: 512 });
    expect(preview.exif).toBeUndefined();
    expect(preview.icc).toBeUndefined();
    expect(preview.orientation).toBeUndefined();
    const [topR, , topB] = await meanColour(webp, { left: 0, top: 0, width: 256, height: 200 });
    const [bottomR, , bottomB] = await meanColour(webp, { left: 0, top: 312, width: 256, height: 200 });
    expect(topR).toBeGreaterThan(200);
    expect(topB).toBeLessThan(50);
    expect(bottomB).toBeGreaterThan(200);
    expect(bottomR).toBeLessThan(50);
    // The original bytes are never changed.
    expect(await stored(row.storageKey)).toEqual(bytes);
  });

  it('analyses and previews a CMYK JPEG and a 16-bit PNG in the colours of the original photograph', async () => {
    const reference = await analysed({ name: 'cups.jpg', bytes: await readFile(PHOTO), type: 'image/jpeg' });
    const cmyk = await analysed({
      name: 'cups-cmyk.jpg',
      bytes: await sharp(PHOTO).toColourspace('cmyk').jpeg({ quality: 95 }).toBuffer(),
      type: 'image/jpeg',
    });
    const deep = await analysed({
      name: 'cups-16-bit.png',
      bytes: await sharp(PHOTO).toColourspace('rgb16').png().toBuffer(),
      type: 'image/png',
    });

    expect(colourTags(reference.row).length).toBeGreaterThan(0);
    const whole = { left: 0, top: 0, width: reference.preview.width!, height: reference.preview.height! };
    const referenceColour = await meanColour(reference.webp, whole);
    for (const { row, webp, preview } of [cmyk, deep]) {
      expect(row.status).toBe('ready');
      expect(colourTags(row)).toEqual(colourTags(reference.row));
      expect([preview.width, preview.height, preview.channels]).toEqual([whole.width, whole.height, 3]);
      const colour = await meanColour(webp, whole);
      const furthest = Math.max(...colour.map((value, channel) => Math.abs(value - referenceColour[channel]!)));
      expect(furthest).toBeLessThan(8);
    }
  });

  it('shows the first frame of an animated GIF, a greyscale image in grey, and keeps transparency', async () => {
    const frame = (background: string) =>
      sharp({ create: { width: 300, height: 200, channels: 3, background } })
        .png()
        .toBuffer();
    const gif = await analysed({
      name: 'blink.gif',
      bytes: await sharp([await frame('red'), await frame('blue')], { join: { animated: true } })
        .gif()
        .toBuffer(),
      type: 'image/gif',
    });
    expect(gif.row.status).toBe('ready');
    expect(gif.preview).toMatchObject({ width: 300, height: 200 });
    expect(gif.preview.pages ?? 1).toBe(1);
    expect(colourTags(gif.row)).toEqual(['red']);
    const [r, , b] = await meanColour(gif.webp, { left: 0, top: 0, width: 300, height: 200 });
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(50);

    const grey = await analysed({
      name: 'grey.png',
      bytes: await sharp(PHOTO).toColourspace('b-w').png().toBuffer(),
      type: 'image/png',
    });
    expect(grey.row.status).toBe('ready');
    expect(colourTags(grey.row)).toEqual([]);
    const [gr, gg, gb] = await meanColour(grey.webp, { left: 0, top: 0, width: 100, height: 100 });
    expect(Math.abs(gr! - gg!) + Math.abs(gg! - gb!)).toBeLessThan(4);

    // A green disc on a transparent square whose hidden pixels are blue: the preview keeps the transparency,
    // and the analysis sees the disc on white, not on blue.
    const disc = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><circle cx="200" cy="200" r="120" fill="#00a000"/></svg>',
    );
    const hiddenBlue = await sharp({
      create: { width: 400, height: 400, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0 } },
    })
      .composite([{ input: disc }])
      .png()
      .toBuffer();
    const alpha = await analysed({ name: 'disc.png', bytes: hiddenBlue, type: 'image/png' });
    expect(alpha.row.status).toBe('ready');
    expect(alpha.preview).toMatchObject({ width: 400, height: 400, hasAlpha: true });
    const corner = await sharp(alpha.webp).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    expect(corner[3]).toBe(0);
    expect(colourTags(alpha.row)).toEqual(['green']);
  });

  it('is written once per image: a retry replaces it', async () => {
    const bytes = await sharp(PHOTO).resize(800).jpeg().toBuffer();
    const { user, row } = await analysed({ name: 'again.jpg', bytes, type: 'image/jpeg' });
    // The next attempt, as a retry of the batch would run it.
    await world.repositories.images.update(row.id, { status: 'queued' });
    await handler().handle({ imageId: row.id, batchId: row.batchId }, attempt);

    const keys: string[] = [];
    for await (const object of world.store.list(userObjectPrefix(user.id))) keys.push(object.key);
    expect(keys.sort()).toEqual([previewObjectKey(user.id, row.id), row.storageKey].sort());
    expect((await sharp(await stored(previewObjectKey(user.id, row.id))).metadata()).format).toBe('webp');
  });
});
