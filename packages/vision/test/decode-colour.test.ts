import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describePixels } from '@renamer/vision';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_EDGE_PX, analysisPixels, type DecodedImage, decodeImage, decodeUpright } from '../src/decoded-image';

/** A real photograph, and copies of it in the colour forms cameras and editors write, made by sharp's encoders. */
const PHOTO = fileURLToPath(new URL('../../../fixtures/photos/colorful-cups.jpg', import.meta.url));
let dir: string;
let original: DecodedImage;

async function write(name: string, bytes: Buffer) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

/** Mean difference per channel value, 0–255: the same picture decoded twice differs by a few levels at most. */
function meanDifference(a: DecodedImage, b: DecodedImage): number {
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let sum = 0;
  for (let i = 0; i < a.pixels.length; i++) sum += Math.abs(a.pixels[i]! - b.pixels[i]!);
  return sum / a.pixels.length;
}

const colourWords = (image: DecodedImage) =>
  describePixels(image)
    .filter((tag) => tag.source === 'colour')
    .map((tag) => tag.label);

const pixelAt = (image: DecodedImage, x: number, y: number) => {
  const at = (y * image.width + x) * 3;
  return [...image.pixels.subarray(at, at + 3)];
};

const solid = (r: number, g: number, b: number) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'renamer-decode-colour-'));
  original = await decodeImage(PHOTO);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('decoding for the analysis', () => {
  it('gives a CMYK JPEG the colours of the RGB original, not inverted ones', async () => {
    const cmyk = await write('cmyk.jpg', await sharp(PHOTO).toColourspace('cmyk').jpeg({ quality: 95 }).toBuffer());
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');

    const decoded = await decodeImage(cmyk);
    expect(decoded.channels).toBe(3);
    expect(meanDifference(original, decoded)).toBeLessThan(12);
    expect(colourWords(decoded)).toEqual(colourWords(original));
  });

  it('reads a 16-bit PNG as the same 8-bit picture', async () => {
    const deep = await write('deep.png', await sharp(PHOTO).toColourspace('rgb16').png().toBuffer());
    expect((await sharp(deep).metadata()).depth).toBe('ushort');

    const decoded = await decodeImage(deep);
    expect(decoded.pixels.length).toBe(decoded.width * decoded.height * 3);
    expect(meanDifference(original, decoded)).toBeLessThan(3);
    expect(colourWords(decoded)).toEqual(colourWords(original));
  });

  it('converts a wide-gamut (Display P3) photograph to sRGB', async () => {
    const red = await write(
      'p3-red.jpg',
      await sharp(await solid(255, 0, 0))
        .withIccProfile('p3')
        .jpeg()
        .toBuffer(),
    );
    // The file holds P3 values, which read as sRGB would be a duller red.
    const [storedRed] = await sharp(red).keepIccProfile().raw().toBuffer();
    expect(storedRed).toBeLessThan(240);

    const [r, g, b] = pixelAt(await decodeImage(red), 10, 10);
    expect(r).toBeGreaterThan(245);
    expect(g).toBeLessThan(12);
    expect(b).toBeLessThan(12);
  });

  it('expands greyscale to three equal channels', async () => {
    const grey = await write('grey.png', await sharp(PHOTO).toColourspace('b-w').png().toBuffer());
    expect((await sharp(grey).metadata()).channels).toBe(1);

    const decoded = await decodeImage(grey);
    expect(decoded.channels).toBe(3);
    const [r, g, b] = pixelAt(decoded, 100, 100);
    expect(r).toBe(g);
    expect(g).toBe(b);
    expect(colourWords(decoded)).toEqual([]);
  });

  it('flattens transparent areas onto white for the analysis, and keeps the alpha for the preview', async () => {
    // Fully transparent pixels that still hold a colour: dropping alpha would show it.
    const hidden = await sharp({
      create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const upright = await decodeUpright(sharp(await write('transparent.png', hidden)));
    expect(upright.channels).toBe(4);
    expect(upright.data[3]).toBe(0);

    const pixels = await analysisPixels(upright);
    expect(pixels.channels).toBe(3);
    expect(pixelAt(pixels, 32, 32)).toEqual([255, 255, 255]);
    expect(colourWords(pixels)).toEqual([]);
  });

  it('reads the first frame of an animated GIF or WebP and the first page of a TIFF', async () => {
    const frames = [await solid(255, 0, 0), await solid(0, 0, 255)];
    const animated = sharp(frames, { join: { animated: true } });
    const files = {
      gif: await write('two-frames.gif', await animated.clone().gif().toBuffer()),
      webp: await write('two-frames.webp', await animated.clone().webp({ lossless: true }).toBuffer()),
      tiff: await write('two-pages.tiff', await animated.clone().tiff().toBuffer()),
    };
    for (const [format, path] of Object.entries(files)) {
      expect((await sharp(path).metadata()).pages, format).toBe(2);
      const decoded = await decodeImage(path);
      expect([decoded.width, decoded.height], format).toEqual([40, 30]);
      const [r, , b] = pixelAt(decoded, 20, 15);
      expect(r, format).toBeGreaterThan(240);
      expect(b, format).toBeLessThan(15);
    }
  });

  it('applies the EXIF orientation and shrinks to the analysis size', async () => {
    // Stored landscape, red on the left, blue on the right; orientation 6 shows it turned a quarter clockwise.
    const halves = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: 'blue' } })
      .composite([
        { input: { create: { width: 1000, height: 1000, channels: 3, background: 'red' } }, left: 0, top: 0 },
      ])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();

    const decoded = await decodeImage(await write('rotated.jpg', halves));
    expect([decoded.width, decoded.height]).toEqual([ANALYSIS_EDGE_PX / 2, ANALYSIS_EDGE_PX]);
    expect(pixelAt(decoded, 256, 100)[0]).toBeGreaterThan(200);
    expect(pixelAt(decoded, 256, 900)[2]).toBeGreaterThan(200);
  });
});
