import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionsTo, type DownloadWorld, type Driver, openFds, startDownloadWorld } from './downloads-world';
import { largeJpeg } from './support/images';

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** GET on a connection of its own, closed after the answer (fetch would keep it open). */
function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode!));
    }).once('error', reject);
  });
}

/**
 * Reads the first chunk of `url` on a connection of its own, stops reading until the socket buffers on both
 * sides are full (the server then waits in the middle of an entry), and hangs up.
 */
function readThenHangUp(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false }, (response) => {
      response.once('data', (chunk: Buffer) => {
        response.pause();
        setTimeout(() => {
          request.destroy();
          resolve(chunk.length);
        }, 1_000);
      });
    });
    request.once('error', (error) => {
      if (!request.destroyed) reject(error);
    });
  });
}

describe.each<Driver>(['fs', 's3'])('a client that hangs up in the middle of a ZIP (%s driver)', (driver) => {
  let world: DownloadWorld;
  let owner: Awaited<ReturnType<DownloadWorld['stack']['createUser']>>;
  let batchId: string;
  let totalBytes: number;

  beforeAll(async () => {
    world = await startDownloadWorld(`zip-abort-${driver}`, driver);
    owner = await world.stack.createUser();
    const files = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(async (seed) => ({
        name: `noise-${seed}.jpg`,
        bytes: await largeJpeg(1200, seed),
        type: 'image/jpeg',
      })),
    );
    totalBytes = files.reduce((sum, file) => sum + file.bytes.length, 0);
    ({ batchId } = await world.uploadAnalysed(owner.key, files));
  }, 120_000);
  afterAll(() => world?.close());

  it('leaves no object stream, file descriptor or request open, and records what was sent', async () => {
    const { body } = await world.get(`/api/batch/${batchId}/download`, owner.key, { method: 'POST' });
    const token = (body!.url as string).split('/api/files/')[1]!;
    // An instance of its own, so its connections are this download's only.
    const api = await world.stack.startApi();
    // Its database, Redis and rate-limit connections open on a first request; they are not this download's.
    expect(await statusOf(`${api.url}/api/batch/${batchId}/preview`, owner.headers)).toBe(200);
    const objectFds = async () => (await openFds()).filter((target) => target.startsWith(world.objectsDir));
    const fdsBefore = (await openFds()).length;

    const received = await readThenHangUp(`${api.url}/api/files/${token}`);

    const [row] = await eventually(
      () => world.stack.repositories.downloads.listForUser(owner.user.id),
      (rows) => rows[0]?.bytes !== null,
    );
    expect(row!.bytes).toBeGreaterThanOrEqual(received);
    expect(row!.bytes).toBeLessThan(totalBytes);
    // Cut off: not every byte went out.
    expect(row!.completedAt).toBeNull();
    expect(await eventually(objectFds, (fds) => fds.length === 0, 2_000)).toEqual([]);
    if (world.s3Port !== undefined) {
      // The object's GET to the store is closed too (pooled idle connections close within seconds).
      const toStore = () => connectionsTo(world.s3Port!);
      expect(await eventually(toStore, (n) => n === 0, 15_000)).toBe(0);
    }
    const connections = () => new Promise<number>((resolve) => api.app.server.getConnections((_, n) => resolve(n)));
    expect(await eventually(connections, (n) => n === 0)).toBe(0);
    expect((await eventually(openFds, (fds) => fds.length <= fdsBefore)).length).toBeLessThanOrEqual(fdsBefore);

    // The archive is still served whole afterwards.
    const whole = await fetch(body!.url);
    expect(whole.status).toBe(200);
    expect((await whole.arrayBuffer()).byteLength).toBeGreaterThan(totalBytes);
    const [completed] = await eventually(
      () => world.stack.repositories.downloads.listForUser(owner.user.id),
      (rows) => rows[0]?.completedAt !== null,
    );
    expect(completed!.completedAt).toBeInstanceOf(Date);
  });
});
