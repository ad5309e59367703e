import { readFile } from 'node:fs/promises';
import { threadId } from 'node:worker_threads';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCameraDecoding, inspectImageSafety, openUprightImage, readImageMetadata, sniffImageType } from '../src';
import { decodeHeicInPool } from '../src/heic-decoder';
import { cameraFile, createScratch, makeAvif, photoFile, type Scratch } from './fixtures';

const HEIC = cameraFile('colorful-cups.heic');
const MAX_PIXELS = 100_000_000;

let scratch: Scratch;
beforeAll(async () => {
  scratch = await createScratch();
});
afterAll(async () => {
  await closeCameraDecoding();
  await scratch.remove();
});

/** Mean absolute difference per channel between two equally sized RGB buffers. */
function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('HEIC', () => {
  it('sniffs an iPhone-style HEIC as image/heic and an AVIF still as AVIF', async () => {
    expect(await sniffImageType((await readFile(HEIC)).subarray(0, 4100))).toEqual({ mime: 'image/heic', ext: 'heic' });
    expect(await sniffImageType(await makeAvif())).toEqual({ mime: 'image/avif', ext: 'avif' });
  });

  it('passes the safety check with its dimensions and the camera EXIF it carries', async () => {
    const result = await inspectImageSafety(HEIC, { sniffedMime: 'image/heic', maxPixels: MAX_PIXELS });
    expect(result).toEqual({
      ok: true,
      metadata: {
        width: 2048,
        height: 1280,
        format: 'heic',
        hasAlpha: false,
        exif: { make: 'SONY', model: 'NEX-3N', dateTimeOriginal: '2014-04-29T14:25:26' },
      },
    });
    expect(await readImageMetadata(HEIC)).toEqual(result.ok && result.metadata);
  });

  it('refuses more pixels than the limit from the header, before any decode', async () => {
    const result = await inspectImageSafety(HEIC, { sniffedMime: 'image/heic', maxPixels: 2_000_000 });
    expect(result).toMatchObject({ ok: false, reason: 'too_many_pixels' });
  });

  it('refuses a truncated HEIC and one with a JPEG appended', async () => {
    const bytes = await readFile(HEIC);
    const truncated = await scratch.write('cut.heic', bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(await inspectImageSafety(truncated, { sniffedMime: 'image/heic', maxPixels: MAX_PIXELS })).toMatchObject({
      ok: false,
    });
    const trailer = await scratch.write('trailer.heic', Buffer.concat([bytes, await readFile(photoFile('kite.jpg'))]));
    expect(await inspectImageSafety(trailer, { sniffedMime: 'image/heic', maxPixels: MAX_PIXELS })).toMatchObject({
      ok: false,
      reason: 'trailing_data',
    });
  });

  it('decodes in a worker thread of the pool, not on the main thread', async () => {
    const decoded = await decodeHeicInPool({ path: HEIC, maxPixels: MAX_PIXELS });
    expect(decoded).toMatchObject({ width: 2048, height: 1280 });
    expect('threadId' in decoded && decoded.threadId).not.toBe(threadId);
  });

  it('opens the primary image reduced in the thread, with the colours of the photograph it was encoded from', async () => {
    const upright = await openUprightImage(HEIC, 'heic', { maxEdge: 256 });
    const { data, info } = await upright.image.raw().toBuffer({ resolveWithObject: true });
    await upright.release();
    expect(info).toMatchObject({ width: 256, height: 160, channels: 3 });
    const original = await sharp(photoFile('colorful-cups.jpg'))
      .rotate()
      .resize(256, 160, { fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer();
    // Lossy HEVC at quality 60 against the JPEG it came from: close, far from a different picture.
    expect(meanDifference(data, original)).toBeLessThan(12);
  });
});
