import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDir } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DownloadWorld, run, startDownloadWorld } from './downloads-world';
import { upload, waitForBatch } from './support';

const MOTION_DIR = fileURLToPath(new URL('../../../fixtures/motion/', import.meta.url));
const fixture = async (name: string) => ({ name, bytes: await readFile(join(MOTION_DIR, name)), type: 'image/jpeg' });

/** A Pixel Motion Photo, its older MicroVideo form and a Samsung one: each a JPEG with its video appended. */
const MOTION_PHOTOS = ['motion-photo.MP.jpg', 'micro-video.MP.jpg', 'samsung-seft.jpg'];

describe('uploading Motion Photos', () => {
  let world: DownloadWorld;
  let owner: Awaited<ReturnType<DownloadWorld['stack']['createUser']>>;
  let work: string;

  beforeAll(async () => {
    // The worker starts after the upload, so the image detail can be read as the upload left it, then as analysed.
    world = await startDownloadWorld('upload-motion-photo', 'fs', { worker: false });
    owner = await world.stack.createUser();
    work = testDir('upload-motion-photo-work');
  }, 90_000);
  afterAll(() => world?.close());

  const motionPhotoFlag = async (imageId: string) => {
    const { status, body } = await world.get(`/api/image/${imageId}`, owner.key);
    expect(status).toBe(200);
    return { status: body!.status, motionPhoto: body!.metadata?.motionPhoto };
  };

  it('accepts each, says motionPhoto before and after the analysis, and hands back the uploaded bytes', async () => {
    const files = await Promise.all(MOTION_PHOTOS.map(fixture));
    const { status, body } = await upload(world.api.url, owner.key, files, { keywords: 'green bird', name: 'Motion' });
    expect(status).toBe(201);
    expect(body.rejected).toEqual([]);
    const images = (body.accepted as { imageId: string; originalFilename: string }[]).map((accepted) => ({
      imageId: accepted.imageId,
      bytes: files.find((file) => file.name === accepted.originalFilename)!.bytes,
    }));
    expect(images).toHaveLength(MOTION_PHOTOS.length);
    for (const image of images) {
      expect(await motionPhotoFlag(image.imageId)).toEqual({ status: 'queued', motionPhoto: true });
    }

    await world.startWorker();
    await waitForBatch(world.api.url, owner.key, body.batchId, (batch) => batch.status === 'completed', 40_000);
    for (const image of images) {
      expect(await motionPhotoFlag(image.imageId)).toEqual({ status: 'ready', motionPhoto: true });
      const link = await world.get(`/api/image/${image.imageId}/download`, owner.key);
      expect(link.status).toBe(200);
      const downloaded = Buffer.from(await (await fetch(link.body!.url)).arrayBuffer());
      expect(downloaded.equals(image.bytes)).toBe(true);
    }

    const zip = await world.get(`/api/batch/${body.batchId}/download`, owner.key, { method: 'POST' });
    expect(zip.status).toBe(200);
    const dir = await mkdtemp(join(work, 'zip-'));
    const path = join(dir, 'batch.zip');
    await writeFile(path, Buffer.from(await (await fetch(zip.body!.url)).arrayBuffer()));
    const { body: preview } = await world.get(`/api/batch/${body.batchId}/preview`, owner.key);
    const entries = preview!.entries as { imageId: string; filename: string }[];
    expect(entries).toHaveLength(MOTION_PHOTOS.length);
    await run('unzip', ['-q', path, '-d', join(dir, 'out')]);
    for (const entry of entries) {
      const uploaded = images.find((image) => image.imageId === entry.imageId)!.bytes;
      expect((await readFile(join(dir, 'out', entry.filename))).equals(uploaded)).toBe(true);
    }
  }, 90_000);

  it('refuses the same photograph with a video nothing declares: 422, and nothing stored', async () => {
    const { key, user } = await world.stack.createUser();
    const { status, body } = await upload(world.api.url, key, [await fixture('undeclared-trailer.jpg')]);
    expect(status).toBe(422);
    expect(body).toMatchObject({
      code: 'upload_rejected',
      errors: [
        {
          path: 'undeclared-trailer.jpg',
          code: 'unsafe_file',
          message: expect.stringMatching(
            /^\d+ bytes after the image ends at byte \d+: nothing in the file declares them$/,
          ),
        },
      ],
    });
    expect((await world.get('/api/batch', key)).body?.items).toEqual([]);
    expect(await world.stack.storedKeys(user.id)).toEqual([]);
  });
});
