import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, startApiStack, upload } from './support/api-stack';
import { largeJpeg, photo } from './support/images';

let stack: ApiStack;
let api: { url: string };

beforeAll(async () => {
  stack = await startApiStack('upload-order', { UPLOAD_CHECK_CONCURRENCY: '3', UPLOAD_MAX_FILES: '6' });
  api = await stack.startApi();
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const names = (files: { originalFilename: string }[]) => files.map((file) => file.originalFilename);

describe('the files of one upload, checked several at once', () => {
  it('are reported in their order, and of two equal files the earlier wins though its check is the slowest', async () => {
    const owner = await stack.createUser();
    const big = await largeJpeg(1200);
    const { status, body } = await upload(api.url, owner.key, [
      { name: 'big.jpg', bytes: big, type: 'image/jpeg' },
      { name: 'small-1.jpg', bytes: await photo('jpeg', 1), type: 'image/jpeg' },
      { name: 'notes.jpg', bytes: Buffer.from('not an image\n'.repeat(10)), type: 'image/jpeg' },
      { name: 'big-again.jpg', bytes: big, type: 'image/jpeg' },
      { name: 'small-2.png', bytes: await photo('png', 2), type: 'image/png' },
      { name: 'cut.jpg', bytes: big.subarray(0, big.length >> 1), type: 'image/jpeg' },
    ]);
    expect(status).toBe(201);
    expect(names(body.accepted)).toEqual(['big.jpg', 'small-1.jpg', 'small-2.png']);
    expect(
      body.rejected.map((file: { originalFilename: string; code: string }) => [file.originalFilename, file.code]),
    ).toEqual([
      ['notes.jpg', 'unsupported_media_type'],
      ['big-again.jpg', 'duplicate_file'],
      ['cut.jpg', 'unsafe_file'],
    ]);
    expect(body.rejected[1].duplicateOf).toBe(body.accepted[0].imageId);
    await expect.poll(() => stack.leftoverSpoolFiles(), { timeout: 5_000 }).toEqual([]);
  });

  it('still refuse the whole request at the file past the limit, leaving no spooled file', async () => {
    const owner = await stack.createUser();
    const files = await Promise.all(
      Array.from({ length: 7 }, async (_, i) => ({
        name: `p${i}.jpg`,
        bytes: i === 0 ? await largeJpeg(1000) : await photo('jpeg', 200 + i, 256),
        type: 'image/jpeg',
      })),
    );
    const { status, body } = await upload(api.url, owner.key, files);
    expect(status).toBe(413);
    expect(body.code).toBe('too_many_files');
    await expect.poll(() => stack.leftoverSpoolFiles(), { timeout: 5_000 }).toEqual([]);
  });
});
