import type { ImageMetadata } from '@renamer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectImageSafety } from '../src';
import { decodeEveryBlock } from '../src/decode-every-block';
import { createScratch, makeJpeg, type Scratch } from './fixtures';

const MAX_PIXELS = 100_000_000;
// Large enough that the 8×8 target makes libjpeg decode at 1/8 scale.
const JPEG: ImageMetadata = { format: 'jpeg', width: 640, height: 480, hasAlpha: false };

let scratch: Scratch;
let jpeg: Buffer;
beforeAll(async () => {
  scratch = await createScratch();
  jpeg = await makeJpeg(JPEG.width, JPEG.height);
});
afterAll(() => scratch.remove());

const write = (bytes: Buffer) => scratch.write(`file-${Math.random().toString(36).slice(2)}`, bytes);

/** The first SOS segment's first Huffman table selector, pointed at a table the file never defines. */
function withUndefinedHuffmanTable(bytes: Buffer): Buffer {
  const broken = Buffer.from(bytes);
  const sos = broken.indexOf(Buffer.from([0xff, 0xda]));
  broken[sos + 6] = 0x33;
  return broken;
}

describe('decodeEveryBlock of a JPEG, at 1/8 scale (shrink-on-load)', () => {
  it('decodes a whole JPEG', async () => {
    await expect(decodeEveryBlock(await write(jpeg), JPEG, MAX_PIXELS)).resolves.toBeUndefined();
  });

  it('still reads every byte of the scan: a JPEG cut short is refused by the decode itself', async () => {
    for (const fraction of [0.25, 0.5, 0.9]) {
      const cut = jpeg.subarray(0, Math.floor(jpeg.length * fraction));
      await expect(decodeEveryBlock(await write(cut), JPEG, MAX_PIXELS)).rejects.toThrow(/premature end/);
    }
  });

  it('refuses a scan that names a Huffman table the file does not define', async () => {
    const path = await write(withUndefinedHuffmanTable(jpeg));
    await expect(decodeEveryBlock(path, JPEG, MAX_PIXELS)).rejects.toThrow(/Huffman table/);
    expect(await inspectImageSafety(path, { sniffedMime: 'image/jpeg', maxPixels: MAX_PIXELS })).toMatchObject({
      ok: false,
      reason: 'decode_failed',
    });
  });
});
