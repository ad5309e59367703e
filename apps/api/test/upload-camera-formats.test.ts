import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { testDir } from '@renamer/runtime/testing';
import { ExifTool } from 'exiftool-vendored';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, getJson, type Json, startApiStack, upload, waitForBatch } from './support';

const fixture = (path: string) => readFile(new URL(`../../../fixtures/${path}`, import.meta.url));

// The HEIC (249 kB) fits the ordinary limit; the DNG (339 kB) only the RAW one.
const MAX_FILE_BYTES = 260_000;
const MAX_RAW_BYTES = 400_000;

let stack: ApiStack;
let api: { url: string };
const exiftool = new ExifTool({ useMWG: false });
const work = testDir('upload-camera-work');

beforeAll(async () => {
  stack = await startApiStack('upload-camera', {
    UPLOAD_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
    UPLOAD_MAX_RAW_BYTES: String(MAX_RAW_BYTES),
  });
  await stack.platform.initStore();
  api = await stack.startApi();
  await mkdir(work, { recursive: true });
  await stack.startWorker();
}, 90_000);

afterAll(async () => {
  await stack?.close();
  await exiftool.end();
});

const codes = (files: Json[]) => files.map((file) => [file.originalFilename, file.code]);

/** Make, model and capture time as ExifTool reads them from these bytes. */
async function cameraTags(bytes: Buffer, name: string) {
  const path = join(work, `${crypto.randomUUID()}-${name}`);
  await writeFile(path, bytes);
  const { Make, Model, DateTimeOriginal } = await exiftool.readRaw(path, ['-Make', '-Model', '-DateTimeOriginal']);
  return { Make, Model, DateTimeOriginal };
}

describe('uploading phone and camera files', () => {
  it('accepts HEIC and camera RAW (a RAW over the ordinary limit too), analyses them to ready, and hands back the bytes', async () => {
    const owner = await stack.createUser();
    const files = [
      { name: 'IMG_4021.HEIC', bytes: await fixture('camera/colorful-cups.heic'), type: 'image/heic' },
      { name: 'dragonfly.dng', bytes: await fixture('camera/dragonfly.dng'), type: 'image/x-adobe-dng' },
      { name: 'IMG_0412.CR2', bytes: await fixture('camera/IMG_0412.CR2'), type: 'image/x-canon-cr2' },
      { name: 'P1000207.RW2', bytes: await fixture('camera/P1000207.RW2'), type: '' },
      {
        name: 'scan.tif',
        bytes: await sharp(await fixture('photos/wine.jpg'))
          .tiff()
          .toBuffer(),
        type: 'image/tiff',
      },
    ];
    expect(files[1]!.bytes.length).toBeGreaterThan(MAX_FILE_BYTES);
    const { status, body } = await upload(api.url, owner.key, files, { keywords: 'camera test' });
    expect(status).toBe(201);
    expect(body.rejected).toEqual([]);
    const ids = new Map<string, string>(body.accepted.map((file: Json) => [file.originalFilename, file.imageId]));

    await waitForBatch(api.url, owner.key, body.batchId, (batch) => batch.status === 'completed', 60_000);
    for (const [index, file] of files.entries()) {
      const imageId = ids.get(file.name)!;
      const { body: image } = await getJson(`${api.url}/api/image/${imageId}`, owner.key);
      expect(image).toMatchObject({ status: 'ready' });
      expect(image!.proposedFilename).toEqual(expect.any(String));
      expect(image!.metadata.format).toBe(['heic', 'dng', 'cr2', 'rw2', 'tiff'][index]);

      const { body: link } = await getJson(`${api.url}/api/image/${imageId}/download`, owner.key);
      const downloaded = Buffer.from(await (await fetch(link!.url)).arrayBuffer());
      expect(downloaded.equals(file.bytes)).toBe(true);
      if (index < 4) {
        expect(await cameraTags(downloaded, file.name)).toEqual(await cameraTags(file.bytes, file.name));
      }
    }
  }, 120_000);

  it('stores and reports RAW under its usual type, and refuses a RAW over its own limit (413) before checking it', async () => {
    const owner = await stack.createUser();
    const small = await stack.startApi({ UPLOAD_MAX_RAW_BYTES: '300000' });
    const { status, body } = await upload(small.url, owner.key, [
      { name: 'dragonfly.dng', bytes: await fixture('camera/dragonfly.dng'), type: 'image/x-adobe-dng' },
      { name: 'DSCF0031.RAF', bytes: await fixture('camera/DSCF0031.RAF'), type: 'image/x-fujifilm-raf' },
    ]);
    expect(status).toBe(201);
    expect(codes(body.rejected)).toEqual([['dragonfly.dng', 'file_too_large']]);
    expect(body.rejected[0].detail).toBe('The camera RAW file is larger than 300000 bytes.');
    const [stored] = await stack.repositories.images.listAllByBatch(body.batchId);
    expect(stored).toMatchObject({ originalFilename: 'DSCF0031.RAF', mimeType: 'image/x-fujifilm-raf' });
    expect(stored!.metadata).toMatchObject({ format: 'raf', exif: { make: 'FUJIFILM', model: 'FinePix S5Pro' } });
  });

  it('refuses a truncated HEIC and a RAW without a usable preview (422), and a NEF sent as a TIFF (415)', async () => {
    const owner = await stack.createUser();
    const heic = await fixture('camera/colorful-cups.heic');
    const nef = await fixture('camera/DSC_0001.NEF');
    const { status, body } = await upload(api.url, owner.key, [
      { name: 'cut.heic', bytes: heic.subarray(0, heic.length >> 1), type: 'image/heic' },
      { name: 'DSC_0001.NEF', bytes: nef, type: 'image/x-nikon-nef' },
      { name: 'DSC_0001.tif', bytes: nef, type: 'image/tiff' },
    ]);
    expect(status).toBe(422);
    expect(body.code).toBe('upload_rejected');
    expect(body.errors.map((error: Json) => [error.path, error.code])).toEqual([
      ['cut.heic', 'unsafe_file'],
      ['DSC_0001.NEF', 'unsafe_file'],
      ['DSC_0001.tif', 'unsupported_media_type'],
    ]);
    expect(body.errors[1].message).toMatch(/NEF file has no usable JPEG preview/);
    expect(body.errors[2].message).toMatch(/image\/x-nikon-nef/);
    expect(stack.leftoverSpoolFiles()).toEqual([]);
  });

  it('keeps answering while HEIC uploads are decoded: a status request completes before the upload', async () => {
    const owner = await stack.createUser({ quota: 100 });
    const heic = await fixture('camera/colorful-cups.heic');
    const finished: string[] = [];
    const uploading = upload(
      api.url,
      owner.key,
      Array.from({ length: 8 }, (_, index) => ({ name: `IMG_${index}.HEIC`, bytes: heic, type: 'image/heic' })),
    ).then((result) => {
      finished.push('upload');
      return result;
    });
    // Checking has begun once the first file is spooled.
    await expect.poll(() => stack.leftoverSpoolFiles().length, { interval: 5 }).toBeGreaterThan(0);
    const { status } = await getJson(`${api.url}/api/batch`, owner.key);
    finished.push('status');
    expect(status).toBe(200);
    expect((await uploading).status).toBe(201);
    expect(finished).toEqual(['status', 'upload']);
  });
});
