import { execFile } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { testDir } from '@renamer/runtime/testing';
import { type LocalS3, S3RVER_CREDENTIALS, startS3rver } from '@renamer/storage/testing';
import sharp from 'sharp';
import { vi } from 'vitest';
import { type ApiStack, getJson, startApiStack, type UploadFile, upload, waitForBatch } from './support';

export const run = promisify(execFile);

export type Driver = 'fs' | 's3';

/** What a camera writes, and what must come back out of an archive unchanged. */
export const CAMERA = {
  IFD0: { Make: 'Fujifilm', Model: 'X-T5' },
  IFD2: { DateTimeOriginal: '2025:10:04 17:42:09' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 1234/100', GPSLongitudeRef: 'E', GPSLongitude: '13/1 24/1 0/1' },
};

/** A photo-like JPEG of its own colours (`seed`) carrying the camera's EXIF, GPS included. */
export async function cameraJpeg(seed: number, side = 96): Promise<Buffer> {
  const raw = Buffer.alloc(side * side * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * (seed + 7) + seed * 31) % 251;
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 95 })
    .withExif(CAMERA)
    .toBuffer();
}

/** The process's open file descriptors and what they point at. */
export async function openFds(): Promise<string[]> {
  const fds = await readdir('/proc/self/fd');
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter(Boolean);
}

/**
 * Open TCP connections to `port` as their clients hold them (any state but TIME_WAIT, which holds no file
 * descriptor: a connection the server closed stays CLOSE_WAIT until its client closes it).
 */
export async function connectionsTo(port: number): Promise<number> {
  const tables = await Promise.all(['tcp', 'tcp6'].map((name) => readFile(`/proc/self/net/${name}`, 'utf8')));
  const remote = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return tables
    .flatMap((table) => table.trim().split('\n').slice(1))
    .map((line) => line.trim().split(/\s+/))
    .filter(([, , remoteAddress, state]) => remoteAddress?.endsWith(remote) && state !== '06').length;
}

/**
 * The API (in this process) on the driver given, a real worker process analysing what is uploaded, and for S3
 * an s3rver on loopback that both use.
 */
export async function startDownloadWorld(name: string, driver: Driver, { worker: withWorker = true } = {}) {
  let s3: LocalS3 | undefined;
  let overrides: Record<string, string> = {};
  let s3Dir: string | undefined;
  let s3Port: number | undefined;
  if (driver === 's3') {
    const directory = testDir(`${name}-s3rver`);
    s3Dir = directory;
    s3 = await startS3rver(directory);
    const { port } = s3;
    s3Port = port;
    overrides = {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      // The same server under another name, as a browser would reach it: presigned links must name this host.
      S3_PUBLIC_ENDPOINT: `http://localhost:${port}`,
      S3_ACCESS_KEY: S3RVER_CREDENTIALS.accessKey,
      S3_SECRET_KEY: S3RVER_CREDENTIALS.secretKey,
      S3_BUCKET: 'renamer-downloads',
    };
  }
  const stack: ApiStack = await startApiStack(name, overrides);
  await stack.platform.initStore();
  const api = await stack.startApi();
  const startWorker = () => stack.startWorker();
  if (withWorker) await startWorker();

  return {
    stack,
    api,
    startWorker,
    /** Where the stored objects' bytes live on disk (the fs store's directory, or s3rver's). */
    objectsDir: s3Dir ?? stack.env.STORAGE_DIR,
    /** The port of the S3 server, when the driver is S3. */
    s3Port,
    /** Where single downloads' links point: S3_PUBLIC_ENDPOINT, or the API itself. */
    linkOrigin: s3Port === undefined ? api.url : `http://localhost:${s3Port}`,

    /** Uploads through the API and waits until the worker has named every image. */
    async uploadAnalysed(key: string, files: UploadFile[], fields: Record<string, string> = {}) {
      const { status, body } = await upload(api.url, key, files, fields);
      if (status !== 201) throw new Error(`upload answered ${status}: ${JSON.stringify(body)}`);
      await waitForBatch(api.url, key, body.batchId, (s) => s.status === 'completed', 40_000);
      const images = body.accepted.map((accepted: { imageId: string; originalFilename: string }, index: number) => ({
        imageId: accepted.imageId,
        bytes: files[index]!.bytes,
      }));
      return { batchId: body.batchId as string, images: images as { imageId: string; bytes: Buffer }[] };
    },

    get: (path: string, key: string, init: RequestInit = {}) => getJson(`${api.url}${path}`, key, init),

    async close() {
      await stack.close();
      await s3?.close();
    },
  };
}

export type DownloadWorld = Awaited<ReturnType<typeof startDownloadWorld>>;

/**
 * The user's newest download once its byte count is in. The count is written when the response stream closes, which
 * can be a moment after the client has read the last byte.
 */
export function recordedDownload(world: DownloadWorld, userId: string) {
  return vi.waitFor(async () => {
    const [row] = await world.stack.repositories.downloads.listForUser(userId);
    if (row?.bytes == null) throw new Error('the download has no byte count yet');
    return row;
  });
}
