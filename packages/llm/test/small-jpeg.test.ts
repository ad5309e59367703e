import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { smallJpeg } from '../src/small-jpeg';
import { gradientImage as decoded } from './gradient-image';

describe('smallJpeg', () => {
  it('sends at most 512 px on the long edge, as a JPEG without metadata', async () => {
    const jpeg = await smallJpeg(decoded(1024, 683));
    const meta = await sharp(jpeg).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 512, height: 342, channels: 3 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
  });

  it('keeps a portrait upright and a small picture at its own size', async () => {
    expect(await sharp(await smallJpeg(decoded(600, 1024))).metadata()).toMatchObject({ width: 300, height: 512 });
    expect(await sharp(await smallJpeg(decoded(320, 200))).metadata()).toMatchObject({ width: 320, height: 200 });
  });

  it('keeps the colours', async () => {
    const image = decoded(800, 600);
    const before = await sharp(image.pixels, { raw: { width: 800, height: 600, channels: 3 } }).stats();
    const after = await sharp(await smallJpeg(image)).stats();
    for (const channel of [0, 1, 2]) {
      expect(Math.abs(after.channels[channel]!.mean - before.channels[channel]!.mean)).toBeLessThan(2);
    }
  });
});
