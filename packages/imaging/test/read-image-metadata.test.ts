import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readImageMetadata, UnsupportedImageError } from '../src';
import { createScratch, makeAvif, makePng, noiseImage, type Scratch, SVG } from './fixtures';

let scratch: Scratch;
beforeAll(async () => {
  scratch = await createScratch();
});
afterAll(() => scratch.remove());

describe('readImageMetadata', () => {
  it('reads dimensions, orientation and the safe EXIF fields of a camera JPEG, never GPS', async () => {
    const jpeg = await noiseImage(40, 30)
      .jpeg()
      .withExif({
        IFD0: { Make: ' Canon ', Model: 'EOS R5' },
        IFD2: { DateTimeOriginal: '2024:05:01 12:34:56' },
        IFD3: { GPSLatitudeRef: 'N' },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const metadata = await readImageMetadata(await scratch.write('camera.jpg', jpeg));
    expect(metadata).toEqual({
      width: 40,
      height: 30,
      format: 'jpeg',
      orientation: 6,
      hasAlpha: false,
      exif: { make: 'Canon', model: 'EOS R5', dateTimeOriginal: '2024-05-01T12:34:56' },
    });
  });

  it('reports alpha and leaves out what the file does not have', async () => {
    const metadata = await readImageMetadata(await scratch.write('a.png', await makePng()));
    expect(metadata).toEqual({ width: 64, height: 48, format: 'png', hasAlpha: true });
  });

  it('names AVIF as avif, not heif', async () => {
    expect(await readImageMetadata(await scratch.write('a.avif', await makeAvif()))).toMatchObject({ format: 'avif' });
  });

  it('ignores an EXIF block it cannot parse', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    const app1 = Buffer.from([0xff, 0xe1, 0x00, 0x0c, ...Buffer.from('Exif\0\0MM\0*', 'latin1')]);
    const withBrokenExif = Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]);
    const metadata = await readImageMetadata(await scratch.write('broken-exif.jpg', withBrokenExif));
    expect(metadata).toEqual({ width: 8, height: 8, format: 'jpeg', hasAlpha: false });
  });

  it('throws UnsupportedImageError for a format we do not accept', async () => {
    await expect(readImageMetadata(await scratch.write('a.svg', SVG))).rejects.toThrow(UnsupportedImageError);
  });
});
