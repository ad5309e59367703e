import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExifTool } from 'exiftool-vendored';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeCameraDecoding,
  inspectImageSafety,
  isImageMimeType,
  openUprightImage,
  readImageMetadata,
  sniffImageType,
} from '../src';
import { cameraFile, createScratch, noiseImage, photoFile, type Scratch } from './fixtures';

const MAX_PIXELS = 100_000_000;
const exiftool = new ExifTool({ useMWG: false });

let scratch: Scratch;
beforeAll(async () => {
  scratch = await createScratch();
});
afterAll(async () => {
  await Promise.all([closeCameraDecoding(), exiftool.end()]);
  await scratch.remove();
});

const sniff = async (path: string) => sniffImageType((await readFile(path)).subarray(0, 4100));

describe('camera RAW', () => {
  it.each([
    ['dragonfly.dng', 'image/x-adobe-dng'],
    ['IMG_0412.CR2', 'image/x-canon-cr2'],
    ['IMG_0001.CR3', 'image/x-canon-cr3'],
    ['DSC_0001.NEF', 'image/x-nikon-nef'],
    ['DSCF0031.RAF', 'image/x-fujifilm-raf'],
    ['P1000207.RW2', 'image/x-panasonic-rw2'],
  ])('sniffs %s as %s', async (name, mime) => {
    const sniffed = await sniff(cameraFile(name));
    expect(sniffed?.mime).toBe(mime);
    expect(isImageMimeType(mime)).toBe(true);
  });

  it('keeps as a TIFF, and accepts, a TIFF that a Nikon camera wrote (no sub-IFDs)', async () => {
    const tiff = await noiseImage(64, 48)
      .tiff()
      .withExif({ IFD0: { Make: 'NIKON CORPORATION', Model: 'NIKON D70' } })
      .toBuffer();
    const path = await scratch.write('nikon.tif', tiff);
    expect(await sniff(path)).toEqual({ mime: 'image/tiff', ext: 'tif' });
    expect(await inspectImageSafety(path, { sniffedMime: 'image/tiff', maxPixels: MAX_PIXELS })).toMatchObject({
      ok: true,
      metadata: { format: 'tiff' },
    });
  });

  it.each([
    ['dragonfly.dng', 'image/x-adobe-dng', 'dng', 'dragonfly.jpg', 'Canon', '2005-08-03T18:59:18'],
    ['IMG_0412.CR2', 'image/x-canon-cr2', 'cr2', 'bridge.jpg', 'Canon', '2005-08-03T18:59:18'],
    ['P1000207.RW2', 'image/x-panasonic-rw2', 'rw2', 'kite.jpg', 'Panasonic', '2008-08-06T15:21:56'],
  ])(
    'accepts %s through its preview, with the RAW EXIF and the preview dimensions',
    async (name, mime, format, photo, make, taken) => {
      const path = cameraFile(name);
      const result = await inspectImageSafety(path, { sniffedMime: mime, maxPixels: MAX_PIXELS });
      const preview = await sharp(photoFile(photo)).metadata();
      expect(result).toMatchObject({
        ok: true,
        metadata: { format, width: preview.width, height: preview.height, exif: { make, dateTimeOriginal: taken } },
      });
      expect(await readImageMetadata(path, format as 'dng')).toEqual(result.ok && result.metadata);
    },
  );

  it.each([
    ['DSC_0001.NEF', 'image/x-nikon-nef'],
    ['IMG_0001.CR3', 'image/x-canon-cr3'],
  ])('refuses %s, whose previews are stubs, with a plain reason', async (name, mime) => {
    const result = await inspectImageSafety(cameraFile(name), { sniffedMime: mime, maxPixels: MAX_PIXELS });
    expect(result).toMatchObject({ ok: false, reason: 'no_usable_preview' });
    expect(!result.ok && result.detail).toMatch(/has no usable JPEG preview/);
  });

  it('refuses a RAW with a script anywhere in the file', async () => {
    const bytes = await readFile(cameraFile('IMG_0412.CR2'));
    const path = await scratch.write('script.cr2', Buffer.concat([bytes, Buffer.from('<script>alert(1)</script>')]));
    expect(await inspectImageSafety(path, { sniffedMime: 'image/x-canon-cr2', maxPixels: MAX_PIXELS })).toMatchObject({
      ok: false,
      reason: 'active_content',
    });
  });

  it('refuses a RAW whose preview has more pixels than the limit', async () => {
    const result = await inspectImageSafety(cameraFile('dragonfly.dng'), {
      sniffedMime: 'image/x-adobe-dng',
      maxPixels: 1_000_000,
    });
    expect(result).toMatchObject({ ok: false, reason: 'no_usable_preview' });
    expect(!result.ok && result.detail).toMatch(/over the limit/);
  });

  it('opens the preview turned as the RAW says (orientation 6: portrait)', async () => {
    const path = join(scratch.dir, 'turned.cr2');
    await copyFile(cameraFile('IMG_0412.CR2'), path);
    await exiftool.write(path, { Orientation: 6 } as never, { writeArgs: ['-overwrite_original', '-n'] });
    const metadata = await readImageMetadata(path, 'cr2');
    expect(metadata.orientation).toBe(6);
    const upright = await openUprightImage(path, 'cr2');
    const { info } = await upright.image.raw().toBuffer({ resolveWithObject: true });
    await upright.release();
    expect({ width: info.width, height: info.height }).toEqual({ width: metadata.height, height: metadata.width });
  });
});
