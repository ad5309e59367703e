import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IMAGE_EVENTS } from '@renamer/domain';
import { testDir } from '@renamer/runtime/testing';
import { ExifTool } from 'exiftool-vendored';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiEnv } from '../src/env';
import { createDeliveryLinks } from '../src/services/downloads/delivery-links';
import {
  cameraJpeg,
  type DownloadWorld,
  type Driver,
  recordedDownload,
  run,
  startDownloadWorld,
} from './downloads-world';
import { photo, upload } from './support';

const exiftool = new ExifTool();
afterAll(() => exiftool.end());

/** The camera's tags as exiftool reads them from a file. */
async function cameraTags(path: string) {
  const tags = await exiftool.read(path);
  return {
    make: tags.Make,
    model: tags.Model,
    taken: String(tags.DateTimeOriginal),
    latitude: tags.GPSLatitude,
    longitude: tags.GPSLongitude,
  };
}

async function fetchToFile(url: string, dir: string, name: string) {
  const response = await fetch(url);
  const bytes = Buffer.from(await response.arrayBuffer());
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { response, bytes, path };
}

const minutesFromNow = (iso: string) => (new Date(iso).getTime() - Date.now()) / 60_000;

describe.each<Driver>(['fs', 's3'])('downloads on the %s driver', (driver) => {
  let world: DownloadWorld;
  let owner: Awaited<ReturnType<DownloadWorld['stack']['createUser']>>;
  let batch: Awaited<ReturnType<DownloadWorld['uploadAnalysed']>>;
  let work: string;

  beforeAll(async () => {
    world = await startDownloadWorld(`downloads-${driver}`, driver);
    owner = await world.stack.createUser();
    work = testDir(`downloads-${driver}-work`);
    batch = await world.uploadAnalysed(
      owner.key,
      await Promise.all(
        [1, 2, 3].map(async (seed) => ({
          name: `DSCF00${seed}.JPG`,
          bytes: await cameraJpeg(seed),
          type: 'image/jpeg',
        })),
      ),
      { keywords: 'lake shore', name: 'Lake trip' },
    );
  }, 90_000);
  afterAll(() => world?.close());

  const image = (index: number) => batch.images[index]!;

  it('hands out a 15-minute link to the original bytes under the current filename, and records it', async () => {
    const { status, body } = await world.get(`/api/image/${image(0).imageId}/download`, owner.key);
    expect(status).toBe(200);
    expect(new URL(body!.url).origin).toBe(world.linkOrigin);
    expect(minutesFromNow(body!.expiresAt)).toBeGreaterThan(14.9);
    expect(minutesFromNow(body!.expiresAt)).toBeLessThanOrEqual(15);
    const { body: preview } = await world.get(`/api/batch/${batch.batchId}/preview`, owner.key);
    const filename = preview!.entries.find((entry: { imageId: string }) => entry.imageId === image(0).imageId)
      .filename as string;
    expect(filename).toMatch(/^lake-shore.*\.jpg$/);

    // No credentials: the link is all a browser or curl needs.
    const response = await fetch(body!.url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(image(0).bytes)).toBe(true);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${filename}"`);
    expect(response.headers.get('content-type')).toBe('image/jpeg');

    const rows = await world.stack.repositories.downloads.listForUser(owner.user.id);
    expect(rows[0]).toMatchObject({ kind: 'image', imageId: image(0).imageId, expiresAt: new Date(body!.expiresAt) });
  });

  it('streams the batch as a ZIP holding exactly the preview’s entries, byte for byte, EXIF intact', async () => {
    const { body: preview } = await world.get(`/api/batch/${batch.batchId}/preview`, owner.key);
    expect(preview!.entries).toHaveLength(3);
    const entries = preview!.entries as { imageId: string; filename: string; originalFilename: string }[];
    expect(entries.map((entry) => entry.imageId).sort()).toEqual(batch.images.map((i) => i.imageId).sort());
    expect(entries.map((entry) => entry.originalFilename).sort()).toEqual([
      'DSCF001.JPG',
      'DSCF002.JPG',
      'DSCF003.JPG',
    ]);
    expect(entries.every((entry) => entry.filename.startsWith('lake-shore'))).toBe(true);
    expect(preview!.entries[0]).toMatchObject({ status: 'ready', approved: false });
    const uploaded = (entry: { imageId: string }) => batch.images.find((i) => i.imageId === entry.imageId)!.bytes;

    const { status, body } = await world.get(`/api/batch/${batch.batchId}/download`, owner.key, { method: 'POST' });
    expect(status).toBe(200);
    expect(body!.entries).toBe(preview!.entries.length);
    expect(body!.url).toMatch(new RegExp(`^${world.api.url}/api/files/`));
    expect(minutesFromNow(body!.expiresAt)).toBeGreaterThan(59.9);

    const dir = await mkdtemp(join(work, 'zip-'));
    const { response, bytes, path } = await fetchToFile(body!.url, dir, 'batch.zip');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="Lake trip.zip"');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);

    await run('unzip', ['-t', path]);
    const listed = (await run('unzip', ['-Z1', path])).stdout.trim().split('\n');
    expect(listed).toEqual(entries.map((entry) => entry.filename));
    const out = join(dir, 'out');
    await run('unzip', ['-q', path, '-d', out]);
    for (const entry of entries) {
      expect((await readFile(join(out, entry.filename))).equals(uploaded(entry))).toBe(true);
    }
    await writeFile(join(dir, 'original.jpg'), uploaded(entries[0]!));
    const extracted = await cameraTags(join(out, entries[0]!.filename));
    expect(extracted).toEqual(await cameraTags(join(dir, 'original.jpg')));
    expect(extracted).toMatchObject({ make: 'Fujifilm', model: 'X-T5', latitude: expect.closeTo(52.52, 2) });

    const row = await recordedDownload(world, owner.user.id);
    expect(row).toMatchObject({ kind: 'zip', batchId: batch.batchId, approvedOnly: false, bytes: bytes.length });
  });

  it('limits the preview and the archive to approved images when asked', async () => {
    // The worker's and the approve route's path: the domain's approve event on the image row.
    await world.stack.repositories.images.update(
      image(1).imageId,
      { status: IMAGE_EVENTS.approve.to, approvedAt: new Date() },
      { expectStatus: IMAGE_EVENTS.approve.from },
    );
    const { body: preview } = await world.get(`/api/batch/${batch.batchId}/preview?approvedOnly=true`, owner.key);
    expect(preview!.entries).toEqual([
      expect.objectContaining({ imageId: image(1).imageId, status: 'approved', approved: true }),
    ]);
    const { body } = await world.get(`/api/batch/${batch.batchId}/download?approvedOnly=true`, owner.key, {
      method: 'POST',
    });
    expect(body!.entries).toBe(preview!.entries.length);
    const dir = await mkdtemp(join(work, 'approved-'));
    const { path } = await fetchToFile(body!.url, dir, 'approved.zip');
    expect((await run('unzip', ['-Z1', path])).stdout.trim()).toBe(preview!.entries[0].filename);
    const row = await recordedDownload(world, owner.user.id);
    expect(row).toMatchObject({ kind: 'zip', approvedOnly: true });
  });

  it('answers 404 to another user for the image link, the preview and the archive', async () => {
    const stranger = await world.stack.createUser();
    for (const [path, method] of [
      [`/api/image/${image(0).imageId}/download`, 'GET'],
      [`/api/batch/${batch.batchId}/preview`, 'GET'],
      [`/api/batch/${batch.batchId}/download`, 'POST'],
    ] as const) {
      const { status, body } = await world.get(path, stranger.key, { method });
      expect(status).toBe(404);
      expect(body).toMatchObject({ code: 'not_found' });
    }
    expect(await world.stack.repositories.downloads.listForUser(stranger.user.id)).toEqual([]);
  });

  it('answers 404 when the batch was deleted after the link was handed out', async () => {
    const doomed = await world.uploadAnalysed(owner.key, [
      { name: 'doomed.png', bytes: await photo('png', 77), type: 'image/png' },
    ]);
    const { body } = await world.get(`/api/batch/${doomed.batchId}/download`, owner.key, { method: 'POST' });
    const { status } = await world.get(`/api/batch/${doomed.batchId}`, owner.key, { method: 'DELETE' });
    expect(status).toBe(204);
    const response = await fetch(body!.url);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('archive links of the filesystem driver', () => {
  let world: DownloadWorld;
  let owner: Awaited<ReturnType<DownloadWorld['stack']['createUser']>>;
  let batchId: string;
  let unnamedBatchId: string;

  beforeAll(async () => {
    world = await startDownloadWorld('downloads-links', 'fs', { worker: false });
    owner = await world.stack.createUser();
    // Cancelled before any worker runs: its images never get a name.
    const { body } = await upload(world.api.url, owner.key, [
      { name: 'never.png', bytes: await photo('png', 6), type: 'image/png' },
    ]);
    unnamedBatchId = body.batchId;
    expect((await world.get(`/api/batch/${unnamedBatchId}/cancel`, owner.key, { method: 'POST' })).status).toBe(202);
    await world.startWorker();
    ({ batchId } = await world.uploadAnalysed(owner.key, [
      { name: 'one.png', bytes: await photo('png', 5), type: 'image/png' },
    ]));
  }, 90_000);
  afterAll(() => world?.close());

  it('refuses a tampered archive link with 403 and an expired one with 410', async () => {
    const { body } = await world.get(`/api/batch/${batchId}/download`, owner.key, { method: 'POST' });
    const url = body!.url as string;
    const token = url.slice(url.lastIndexOf('/') + 1);
    // In the middle: a base64url string's last characters can carry only padding bits.
    const at = Math.floor(token.length / 2);
    const tampered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    const refused = await fetch(`${world.api.url}/api/files/${tampered}`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'forbidden' });

    const [row] = await world.stack.repositories.downloads.listForUser(owner.user.id);
    const links = createDeliveryLinks(loadApiEnv(world.stack.env).SESSION_SECRET);
    const expired = links.archive(row!.id, new Date(Date.now() - 1000), { embed: false, manifest: false });
    const gone = await fetch(`${world.api.url}/api/files/${expired}`);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ code: 'link_expired' });
    expect((await fetch(url)).status).toBe(200);
  });

  it('leaves images without a name out: a batch with none has an empty preview and no archive', async () => {
    const { status, body } = await world.get(`/api/batch/${unnamedBatchId}/preview`, owner.key);
    expect(status).toBe(200);
    expect(body).toEqual({ batchId: unnamedBatchId, entries: [] });
    const refused = await world.get(`/api/batch/${unnamedBatchId}/download`, owner.key, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict' });
  });

  it('refuses options that do not fit: a baseUrl without the manifest, or one that is not a path or URL', async () => {
    for (const query of ['baseUrl=/uploads/', 'manifest=true&baseUrl=uploads', 'manifest=true&baseUrl=ftp://x/']) {
      const { status, body } = await world.get(`/api/batch/${batchId}/download?${query}`, owner.key, {
        method: 'POST',
      });
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'validation_failed' });
    }
  });
});
