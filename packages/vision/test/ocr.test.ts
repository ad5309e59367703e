import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTextReader, type DecodedImage, mayHoldText, type TextReader } from '@renamer/vision';
import { type FixturePhoto, tuningPhotos } from '@renamer/vision/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../src/decoded-image';

const WIDTH = 1024;
const HEIGHT = 683;

/** A coffee label as a shop would photograph it: a cream card with dark print on a wooden-brown backdrop. */
const COFFEE_LABEL = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <rect width="${WIDTH}" height="${HEIGHT}" fill="#6b4a2f"/>
  <rect x="212" y="120" width="600" height="440" rx="20" fill="#f4ecd8"/>
  <text x="512" y="250" font-family="DejaVu Serif" font-weight="bold" font-size="64" text-anchor="middle" fill="#2b1d10">Organic</text>
  <text x="512" y="340" font-family="DejaVu Sans" font-size="56" text-anchor="middle" fill="#2b1d10">Dark Roast</text>
  <text x="512" y="430" font-family="DejaVu Sans" font-weight="bold" font-size="72" text-anchor="middle" fill="#8a2b1a">COFFEE</text>
  <text x="512" y="500" font-family="DejaVu Sans" font-size="28" text-anchor="middle" fill="#2b1d10">Fair trade beans 250 g</text>
</svg>`;

/** A green sign, slightly tilted, laid over a real photograph of a room. */
const SIGN = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <g transform="rotate(-4 512 340)">
    <rect x="300" y="260" width="430" height="160" fill="#1f4d2e"/>
    <text x="515" y="335" font-family="DejaVu Sans" font-weight="bold" font-size="46" text-anchor="middle" fill="#f5f5f0">PARKING</text>
    <text x="515" y="395" font-family="DejaVu Sans" font-size="34" text-anchor="middle" fill="#f5f5f0">Visitors only</text>
  </g>
</svg>`;

async function decoded(image: sharp.Sharp): Promise<DecodedImage> {
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, channels: 3 };
}

let cachePath: string;
let reader: TextReader;
let photos: FixturePhoto[];
let label: DecodedImage;

beforeAll(async () => {
  cachePath = await mkdtemp(join(tmpdir(), 'tesseract-cache-'));
  reader = await createTextReader({ cachePath });
  photos = await tuningPhotos();
  label = await decoded(sharp(Buffer.from(COFFEE_LABEL)));
});

afterAll(async () => {
  await reader?.close();
  await rm(cachePath, { recursive: true, force: true });
});

describe('reading the text in a picture', () => {
  it('reads the words of a product label, lowercase, without numbers or unit letters', async () => {
    const tags = await reader.read(label);
    const labels = tags.map((tag) => tag.label);
    expect(labels).toEqual(expect.arrayContaining(['organic', 'dark', 'roast', 'coffee']));
    expect(labels).not.toContain('250');
    expect(labels).not.toContain('g');
    for (const tag of tags) {
      expect(tag.source).toBe('text');
      expect(tag.label).toMatch(/^[a-z]{3,}$/);
      expect(tag.confidence).toBeGreaterThanOrEqual(0.5);
      expect(tag.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('reads a sign laid over a photograph', async () => {
    const wine = photos.find((photo) => photo.file === 'wine.jpg')!;
    const background = sharp(wine.path).resize(WIDTH, HEIGHT, { fit: 'cover' });
    const image = await decoded(background.composite([{ input: Buffer.from(SIGN) }]));
    const labels = (await reader.read(image)).map((tag) => tag.label);
    expect(labels).toEqual(expect.arrayContaining(['parking', 'visitors']));
  });

  it('finds no text in the fixture photographs, none of which holds any', async () => {
    for (const photo of photos) {
      const image = await decodeImage(photo.path);
      expect(await reader.read(image), photo.file).toEqual([]);
    }
  });

  it('stops at once when aborted mid-read, and reads again afterwards', async () => {
    const lines = Array.from(
      { length: 24 },
      (_, i) =>
        `<text x="40" y="${40 + i * 26}" font-family="DejaVu Serif" font-size="20" fill="#222">Store in a cool dry place away from sunlight, keep the bag closed after opening.</text>`,
    ).join('');
    const page = await decoded(
      sharp(
        Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
        <rect width="${WIDTH}" height="${HEIGHT}" fill="#f7f3ea"/>${lines}</svg>`),
      ),
    );
    const controller = new AbortController();
    const started = performance.now();
    const reading = reader.read(page, controller.signal);
    setTimeout(() => controller.abort(new Error('shutting down')), 100);
    await expect(reading).rejects.toThrow('shutting down');
    expect(performance.now() - started).toBeLessThan(400);
    expect((await reader.read(label)).map((tag) => tag.label)).toContain('coffee');
  });

  it('refuses a read already aborted', async () => {
    await expect(reader.read(label, AbortSignal.abort(new Error('too late')))).rejects.toThrow('too late');
  });
});

describe('the text-region gate', () => {
  it('says no to the fixture photographs but a striped butterfly, and yes to the label, in a few milliseconds on a 1024-px image', async () => {
    const images = await Promise.all(photos.map((photo) => decodeImage(photo.path)));
    const saidYes = photos.filter((_, i) => mayHoldText(images[i]!)).map((photo) => photo.file);
    // The one yes: the black and white bands of a swallowtail's wings cross the scan lines like letters' stems. OCR
    // then runs for nothing (its words are filtered out), which costs time but no wrong word.
    expect(saidYes).toEqual(['swallowtail.jpg']);
    expect(mayHoldText(label)).toBe(true);
    const started = performance.now();
    for (const image of images) mayHoldText(image);
    const perImage = (performance.now() - started) / images.length;
    // About 5–8 ms here on a busy 2-core machine.
    expect(perImage).toBeLessThan(50);
  });
});
