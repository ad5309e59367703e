import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { testDir } from '@renamer/runtime/testing';
import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { copyExtension, copyTarget, createMetadataEmbedder, type WebReadyCopy, withExtension } from '../src';

const dir = testDir('delivery-copies');
const tmpDir = join(dir, 'tmp');
const embedder = createMetadataEmbedder({ tmpDir });
afterAll(() => embedder.close());

/** The opener the API hands in, reduced to what a stored PNG or JPEG needs: sharp, turned upright. */
const open: WebReadyCopy['open'] = async (path) => ({ image: sharp(path).rotate(), release: async () => undefined });

function badge(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 0.4 } } })
    .png()
    .toBuffer();
}

describe('web-ready copies', () => {
  it('names the format a copy is written in and its extension', () => {
    expect(copyTarget('png', 'original')).toBe('png');
    expect(copyTarget('heic', 'original')).toBe('jpeg');
    expect(copyTarget('cr2', 'original')).toBe('jpeg');
    expect(copyTarget('png', 'avif')).toBe('avif');
    expect(copyExtension('jpeg')).toBe('jpg');
    expect(withExtension('red-cups.png', 'webp')).toBe('red-cups.webp');
    expect(withExtension('no-extension', 'jpg')).toBe('no-extension.jpg');
  });

  it('re-encodes a transparent PNG as AVIF with its alpha, and as JPEG on white, at most the size asked', async () => {
    const source = await badge(900, 300);
    const avif = await embedder.copy(Readable.from(source), {
      extension: 'png',
      strip: 'none',
      webReady: { target: 'avif', resize: 600, quality: 50, open },
    });
    const avifBytes = await buffer(avif.stream);
    expect(avifBytes.length).toBe(avif.size);
    expect(await sharp(avifBytes).metadata()).toMatchObject({
      format: 'heif',
      width: 600,
      height: 200,
      hasAlpha: true,
    });

    const jpeg = await embedder.copy(Readable.from(source), {
      extension: 'png',
      strip: 'all',
      webReady: { target: 'jpeg', resize: 600, open },
    });
    const jpegBytes = await buffer(jpeg.stream);
    const { data, info } = await sharp(jpegBytes).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 600, height: 200, channels: 3 });
    // 40 % blue over white, not over black.
    expect(data[0]).toBeGreaterThan(140);
  });

  it('never enlarges, and leaves no temporary file behind', async () => {
    const copy = await embedder.copy(Readable.from(await badge(120, 80)), {
      extension: 'png',
      strip: 'location',
      webReady: { target: 'webp', resize: 1600, open },
    });
    const meta = await sharp(await buffer(copy.stream)).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 120, height: 80, hasAlpha: true });
    // Each copy's file goes once its stream has closed (a moment after the last byte was read).
    await vi.waitFor(async () => expect(await readdir(tmpDir)).toEqual([]), { timeout: 2000 });
  });
});
