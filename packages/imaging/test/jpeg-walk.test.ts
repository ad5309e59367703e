import { describe, expect, it } from 'vitest';
import { ByteReader, UnexpectedEndError } from '../src/byte-reader';
import { walkJpeg } from '../src/structure/jpeg';
import { makeJpeg } from './fixtures';

async function* chunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function walkedLength(bytes: Buffer, chunkSize: number): Promise<number> {
  const reader = new ByteReader(chunks(bytes, chunkSize));
  await walkJpeg(reader);
  return reader.position;
}

describe('walkJpeg', () => {
  it('ends at the EOI whatever the chunk boundaries, including inside runs of 0xFF', async () => {
    const jpeg = await makeJpeg(128, 96);
    for (const size of [1, 2, 3, 7, 64, 1000, jpeg.length]) expect(await walkedLength(jpeg, size)).toBe(jpeg.length);
  });

  it('takes fill bytes before the EOI as part of its marker', async () => {
    const jpeg = await makeJpeg();
    const filled = Buffer.concat([jpeg.subarray(0, -2), Buffer.from([0xff, 0xff, 0xff, 0xd9])]);
    for (const size of [1, 2, 5, filled.length]) expect(await walkedLength(filled, size)).toBe(filled.length);
  });

  it('finds the file ending inside the scan, even on a trailing 0xFF', async () => {
    const jpeg = await makeJpeg();
    const cut = Buffer.concat([jpeg.subarray(0, jpeg.length >> 1), Buffer.from([0xff])]);
    for (const size of [1, 3, cut.length]) await expect(walkedLength(cut, size)).rejects.toThrow(UnexpectedEndError);
  });
});
