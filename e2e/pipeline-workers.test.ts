import { photo, upload, waitForBatch } from '@renamer/api/testing';
import { imageObjectKey } from '@renamer/storage';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type PipelineStack, SLOW_WORKER_ENTRY, startPipelineStack } from './support/pipeline-stack';

let stack: PipelineStack;
let api: { url: string };

beforeAll(async () => {
  stack = await startPipelineStack('pipeline-workers');
  api = await stack.startApi();
}, 60_000);

afterAll(() => stack?.close());

describe('many camera files of one subject', () => {
  it('all end ready, each under its own numbered name', async () => {
    const owner = await stack.createUser({ quota: 200 });
    const worker = await stack.startWorker({ WORKER_CONCURRENCY: '4' });
    onTestFinished(() => worker.stop().then(() => undefined));
    const files = await Promise.all(
      Array.from({ length: 70 }, async (_, i) => ({
        name: `IMG_${String(1000 + i)}.PNG`,
        bytes: await photo('png', 2000 + i, 24),
        type: 'image/png',
      })),
    );
    const { status, body } = await upload(api.url, owner.key, files, { keywords: 'ceramic mug' });
    expect(status).toBe(201);
    const done = await waitForBatch(
      api.url,
      owner.key,
      body.batchId,
      (s) => s.status !== 'queued' && s.processed === 70,
      60_000,
    );
    expect(done.counts).toMatchObject({ ready: 70, failed: 0 });
    const rows = await stack.platform.db.sql<
      { filename: string }[]
    >`select filename from images where batch_id = ${body.batchId}`;
    const names = rows.map((row) => row.filename);
    expect(new Set(names).size).toBe(70);
    // The keyword leads; a colour word may tell some apart; the many left alike are numbered.
    for (const name of names) expect(name).toMatch(/^ceramic-mug(-[a-z]+)*(-\d+)?\.png$/);
    expect(names.some((name) => /-\d{2}\.png$/.test(name))).toBe(true);
  }, 90_000);
});

describe('a worker killed in the middle of a job', () => {
  it('loses nothing: another worker runs the job again and the image ends ready', async () => {
    const owner = await stack.createUser();
    const doomed = await stack.startWorker({ SLOW_ANALYSIS_MS: '60000', WORKER_CONCURRENCY: '1' }, SLOW_WORKER_ENTRY);
    const { body } = await upload(api.url, owner.key, [
      { name: 'survivor.png', bytes: await photo('png', 900), type: 'image/png' },
    ]);
    const imageId = body.accepted[0].imageId as string;

    await waitForBatch(api.url, owner.key, body.batchId, (status) => status.counts.processing === 1);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const [image] = await stack.platform.db.sql`select status from images where id = ${imageId}`;
    expect(image?.status).toBe('processing');

    await stack.startWorker();
    const done = await waitForBatch(api.url, owner.key, body.batchId, (status) => status.status === 'completed');
    expect(done.counts).toMatchObject({ ready: 1, processing: 0, failed: 0 });
    const [after] = await stack.platform.db
      .sql`select status, attempts, proposed_filename from images where id = ${imageId}`;
    expect(after?.status).toBe('ready');
    expect(after?.attempts).toBeGreaterThanOrEqual(2);
    expect(after?.proposed_filename).toMatch(/\.png$/);
  });

  it('queues again an image whose job was lost between commit and enqueue', async () => {
    const owner = await stack.createUser();
    const worker = await stack.startWorker();
    onTestFinished(() => worker.stop().then(() => undefined));
    const batch = await stack.repositories.batches.create({ userId: owner.user.id, total: 1, name: 'orphan' });
    const bytes = await photo('png', 901);
    const imageId = crypto.randomUUID();
    const key = imageObjectKey(owner.user.id, imageId);
    const { Readable } = await import('node:stream');
    await stack.platform.store.put(key, Readable.from([bytes]), { size: bytes.length, contentType: 'image/png' });
    // The rows exist but no job was ever queued, as after a crash right after the commit.
    await stack.repositories.images.insertMany([
      {
        id: imageId,
        batchId: batch.id,
        userId: owner.user.id,
        originalFilename: 'orphan.png',
        checksum: 'a'.repeat(64),
        size: bytes.length,
        mimeType: 'image/png',
        storageKey: key,
      },
    ]);
    const done = await waitForBatch(api.url, owner.key, batch.id, (status) => status.status === 'completed');
    expect(done.counts.ready).toBe(1);
  });
});
