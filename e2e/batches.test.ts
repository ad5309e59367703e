import { connectWs, getJson, largeJpeg, photo, pngDeclaring, SVG, upload, waitForBatch } from '@renamer/api/testing';
import type { ServerMessage } from '@renamer/contracts';
import { imageObjectKey, previewObjectKey } from '@renamer/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PipelineStack, SLOW_WORKER_ENTRY, startPipelineStack } from './support/pipeline-stack';

let stack: PipelineStack;
let apiA: { url: string };
let apiB: { url: string };

beforeAll(async () => {
  stack = await startPipelineStack('batches-e2e', {
    UPLOAD_MAX_FILE_BYTES: String(256 * 1024),
    UPLOAD_MAX_FILES: '12',
  });
  apiA = await stack.startApi();
  apiB = await stack.startApi();
  // Two workers, slow enough that a client subscribing right after the upload sees every image change.
  await Promise.all([
    stack.startWorker({ SLOW_ANALYSIS_MS: '1200', WORKER_CONCURRENCY: '2' }, SLOW_WORKER_ENTRY),
    stack.startWorker({ SLOW_ANALYSIS_MS: '1200', WORKER_CONCURRENCY: '2' }, SLOW_WORKER_ENTRY),
  ]);
}, 60_000);

afterAll(() => stack?.close());

const ofType = <T extends ServerMessage['type']>(messages: ServerMessage[], type: T) =>
  messages.filter((message): message is Extract<ServerMessage, { type: T }> => message.type === type);

describe('a mixed upload through one API instance, watched from another', () => {
  it('accepts the images, refuses the rest with the right codes, and reports every change live', async () => {
    const owner = await stack.createUser();
    const jpeg = await photo('jpeg', 1);
    const twice = await photo('jpeg', 2);
    const fullJpeg = await photo('jpeg', 3, 256);
    const files = [
      { name: 'IMG_0001.JPG', bytes: jpeg, type: 'image/jpeg' },
      { name: 'red shoes.png', bytes: await photo('png', 4), type: 'image/png' },
      { name: 'beach.webp', bytes: await photo('webp', 5), type: 'image/webp' },
      { name: 'notes.jpg', bytes: Buffer.from('just some text, not an image\n'.repeat(20)), type: 'image/jpeg' },
      { name: 'truncated.jpg', bytes: fullJpeg.subarray(0, Math.floor(fullJpeg.length / 2)), type: 'image/jpeg' },
      { name: 'bomb.png', bytes: pngDeclaring(30_000, 30_000), type: 'image/png' },
      { name: 'vector.svg', bytes: SVG, type: 'image/svg+xml' },
      { name: 'first.jpg', bytes: twice, type: 'image/jpeg' },
      { name: 'again.jpg', bytes: twice, type: 'image/jpeg' },
      { name: 'huge.jpg', bytes: await largeJpeg(600), type: 'image/jpeg' },
      { name: 'huge.svg', bytes: Buffer.concat([SVG, Buffer.alloc(300 * 1024, 32)]), type: 'image/svg+xml' },
    ];
    const { status, body } = await upload(apiA.url, owner.key, files, {
      name: 'Summer shop',
      keywords: 'red shoes, beach',
      context: 'Sandals and beach shoes\nfor a seaside shop',
    });
    expect(status).toBe(201);
    expect(body.accepted.map((file: { originalFilename: string }) => file.originalFilename).sort()).toEqual(
      ['IMG_0001.JPG', 'beach.webp', 'first.jpg', 'red shoes.png'].sort(),
    );
    const codes = Object.fromEntries(
      body.rejected.map((file: { originalFilename: string; code: string }) => [file.originalFilename, file.code]),
    );
    expect(codes).toEqual({
      'notes.jpg': 'unsupported_media_type',
      'truncated.jpg': 'unsafe_file',
      'bomb.png': 'unsafe_file',
      'vector.svg': 'unsupported_media_type',
      'again.jpg': 'duplicate_file',
      'huge.jpg': 'file_too_large',
      'huge.svg': 'unsupported_media_type',
    });
    const firstId = body.accepted.find(
      (file: { originalFilename: string }) => file.originalFilename === 'first.jpg',
    ).imageId;
    expect(body.rejected.find((file: { code: string }) => file.code === 'duplicate_file').duplicateOf).toBe(firstId);
    expect(body).toMatchObject({ status: 'queued', total: 4 });

    const ws = await connectWs(apiB.url, owner.headers);
    ws.send({ type: 'subscribe', batchId: body.batchId });
    const messages = await ws.waitFor((all) =>
      ofType(all, 'batch.status').some((event) => event.status === 'completed'),
    );
    expect(messages[0]).toMatchObject({ type: 'subscribed', batchId: body.batchId });
    const acceptedIds = body.accepted.map((file: { imageId: string }) => file.imageId).sort();
    const readyIds = ofType(messages, 'image.status')
      .filter((event) => event.status === 'ready')
      .map((event) => event.imageId);
    expect([...new Set(readyIds)].sort()).toEqual(acceptedIds);
    for (const event of ofType(messages, 'image.status').filter((e) => e.status === 'ready')) {
      expect(event.proposedFilename).toMatch(/^[a-z0-9-]+\.(jpg|png|webp)$/);
      expect(event.score).toEqual(expect.any(Number));
    }
    expect(ofType(messages, 'batch.status').at(-1)).toMatchObject({
      status: 'completed',
      processed: 4,
      total: 4,
      progress: 1,
    });
    ws.close();

    const final = await getJson(`${apiA.url}/api/batch/${body.batchId}/status`, owner.key);
    expect(final.body).toMatchObject({
      status: 'completed',
      total: 4,
      processed: 4,
      progress: 1,
      counts: { ready: 4, queued: 0, processing: 0, failed: 0 },
    });
    expect(final.body?.completedAt).toBeTruthy();

    const stored = await stack.storedKeys(owner.user.id);
    const originalsAndPreviews = acceptedIds.flatMap((id: string) => [
      imageObjectKey(owner.user.id, id),
      previewObjectKey(owner.user.id, id),
    ]);
    expect(stored).toEqual(originalsAndPreviews.sort());
    expect(stack.leftoverSpoolFiles()).toEqual([]);

    const usage = await stack.repositories.users.getUsage(owner.user.id, new Date());
    expect(usage?.used).toBe(4);
    // The context is kept as written, line break included, and its words reach the images' tags.
    expect((await stack.repositories.batches.findById(body.batchId))?.context).toBe(
      'Sandals and beach shoes\nfor a seaside shop',
    );
    const [image] = await stack.repositories.images.listAllByBatch(body.batchId);
    expect(image?.visionTags).toContainEqual(expect.objectContaining({ source: 'context' }));
  });

  it('answers 422 with one error per file when nothing is accepted, and stores nothing', async () => {
    const owner = await stack.createUser();
    const { status, body } = await upload(apiA.url, owner.key, [
      { name: 'a.svg', bytes: SVG, type: 'image/svg+xml' },
      { name: 'b.png', bytes: pngDeclaring(30_000, 30_000), type: 'image/png' },
    ]);
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 'upload_rejected', status: 422 });
    expect(body.errors).toEqual([
      expect.objectContaining({ path: 'a.svg', code: 'unsupported_media_type' }),
      expect.objectContaining({ path: 'b.png', code: 'unsafe_file' }),
    ]);
    expect((await stack.repositories.batches.listForUser(owner.user.id)).items).toEqual([]);
  });

  it('refuses an image the user already has, naming it', async () => {
    const owner = await stack.createUser();
    const bytes = await photo('png', 40);
    const first = await upload(apiA.url, owner.key, [{ name: 'one.png', bytes, type: 'image/png' }]);
    const second = await upload(apiA.url, owner.key, [
      { name: 'one-again.png', bytes, type: 'image/png' },
      { name: 'one-once-more.png', bytes, type: 'image/png' },
      { name: 'two.png', bytes: await photo('png', 41), type: 'image/png' },
    ]);
    expect(second.status).toBe(201);
    // Both copies point at the image the user has, not at each other.
    const existingId = first.body.accepted[0].imageId;
    const rejectedNames = Object.fromEntries(
      second.body.rejected.map((file: { originalFilename: string; code: string; duplicateOf: string }) => [
        file.originalFilename,
        [file.code, file.duplicateOf],
      ]),
    );
    expect(rejectedNames).toEqual({
      'one-again.png': ['duplicate_file', existingId],
      'one-once-more.png': ['duplicate_file', existingId],
    });
  });

  it('refuses more files than the per-request limit as a whole, storing nothing', async () => {
    const owner = await stack.createUser();
    const files = await Promise.all(
      Array.from({ length: 13 }, async (_, i) => ({
        name: `p${i}.png`,
        bytes: await photo('png', 100 + i, 16),
        type: 'image/png',
      })),
    );
    const { status, body } = await upload(apiA.url, owner.key, files);
    expect(status).toBe(413);
    expect(body.code).toBe('too_many_files');
    const stored = await stack.storedKeys(owner.user.id);
    expect(stored).toEqual([]);
    expect(stack.leftoverSpoolFiles()).toEqual([]);
  });
});

describe('quota', () => {
  it('refuses an upload that would pass the quota with 402 and stores nothing', async () => {
    const owner = await stack.createUser({ quota: 2 });
    const files = await Promise.all(
      [1, 2, 3].map(async (i) => ({ name: `q${i}.png`, bytes: await photo('png', 200 + i), type: 'image/png' })),
    );
    const { status, body } = await upload(apiA.url, owner.key, files);
    expect(status).toBe(402);
    expect(body.code).toBe('quota_exceeded');
    const stored = await stack.storedKeys(owner.user.id);
    expect(stored).toEqual([]);
    expect((await stack.repositories.users.getUsage(owner.user.id, new Date()))?.used).toBe(0);
    expect(stack.leftoverSpoolFiles()).toEqual([]);
  });

  it('never lets two uploads racing at the edge pass it together, and lets one through', async () => {
    const owner = await stack.createUser({ quota: 5 });
    const batchOf = (offset: number) =>
      Promise.all(
        [0, 1, 2].map(async (i) => ({
          name: `r${offset + i}.png`,
          bytes: await photo('png', 300 + offset + i),
          type: 'image/png',
        })),
      );
    const [left, right] = await Promise.all([batchOf(0), batchOf(10)]);
    const results = await Promise.all([upload(apiA.url, owner.key, left), upload(apiB.url, owner.key, right)]);
    expect(results.map((result) => result.status).sort()).toEqual([201, 402]);
    expect((await stack.repositories.users.getUsage(owner.user.id, new Date()))?.used).toBe(3);
    // The workers may be storing previews meanwhile: the originals are what the uploads left.
    const originals = (await stack.storedKeys(owner.user.id)).filter((key) => key.includes('/images/'));
    expect(originals).toHaveLength(3);
  });
});

describe('the same file in two uploads at once', () => {
  it('ends with the image once, and no object without its row', async () => {
    const owner = await stack.createUser();
    for (let round = 0; round < 3; round++) {
      const bytes = await photo('png', 800 + round);
      const results = await Promise.all(
        [apiA, apiB].map((api, i) => upload(api.url, owner.key, [{ name: `same-${i}.png`, bytes, type: 'image/png' }])),
      );
      const acceptedCount = results.reduce((sum, { body }) => sum + (body.accepted?.length ?? 0), 0);
      expect(acceptedCount, JSON.stringify(results)).toBe(1);
      for (const { status, body } of results.filter((result) => !result.body.accepted?.length)) {
        expect([409, 422]).toContain(status);
        expect(JSON.stringify(body)).toContain('duplicate_file');
      }
    }
    const rows = await stack.platform.db.sql`select storage_key from images where user_id = ${owner.user.id}`;
    const originals = (await stack.storedKeys(owner.user.id)).filter((key) => key.includes('/images/'));
    expect(originals).toEqual(rows.map((row) => row.storage_key as string).sort());
    expect((await stack.repositories.users.getUsage(owner.user.id, new Date()))?.used).toBe(3);
  });
});

describe('cancel and retry', () => {
  it('cancels queued images, then retries them to completion', async () => {
    const owner = await stack.createUser();
    const files = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(async (i) => ({
        name: `c${i}.png`,
        bytes: await photo('png', 400 + i),
        type: 'image/png',
      })),
    );
    const { body } = await upload(apiA.url, owner.key, files);
    const ws = await connectWs(apiB.url, owner.headers);
    ws.send({ type: 'subscribe', batchId: body.batchId });
    await ws.waitFor((all) => all.some((m) => m.type === 'subscribed'));

    const cancelled = await getJson(`${apiA.url}/api/batch/${body.batchId}/cancel`, owner.key, { method: 'POST' });
    expect(cancelled.status).toBe(202);
    expect(cancelled.body?.status).toBe('cancelled');
    expect(cancelled.body?.counts.cancelled).toBeGreaterThan(0);
    await ws.waitFor((all) => ofType(all, 'batch.status').some((event) => event.status === 'cancelled'));
    expect(ofType(ws.messages, 'image.status').filter((event) => event.status === 'cancelled').length).toBeGreaterThan(
      0,
    );

    const settled = await waitForBatch(apiA.url, owner.key, body.batchId, (s) => s.counts.processing === 0);
    expect(settled.status).toBe('cancelled');
    expect(settled.counts.queued).toBe(0);
    const again = await getJson(`${apiA.url}/api/batch/${body.batchId}/cancel`, owner.key, { method: 'POST' });
    expect(again.status).toBe(409);

    const retried = await getJson(`${apiA.url}/api/batch/${body.batchId}/retry`, owner.key, { method: 'POST' });
    expect(retried.status).toBe(202);
    expect(retried.body?.status).toBe('queued');
    const done = await waitForBatch(apiA.url, owner.key, body.batchId, (s) => s.status === 'completed');
    expect(done.counts.ready + done.counts.cancelled).toBe(6);
    expect(done.counts.cancelled).toBe(0);
    const noMore = await getJson(`${apiA.url}/api/batch/${body.batchId}/retry`, owner.key, { method: 'POST' });
    expect(noMore.status).toBe(409);
    ws.close();
  });
});

describe('ownership and access', () => {
  it("answers not_found for another user's batch, over HTTP and on the WebSocket", async () => {
    const owner = await stack.createUser();
    const stranger = await stack.createUser();
    const { body } = await upload(apiA.url, owner.key, [
      { name: 'mine.png', bytes: await photo('png', 500), type: 'image/png' },
    ]);
    for (const [method, path] of [
      ['GET', 'status'],
      ['POST', 'cancel'],
      ['POST', 'retry'],
    ] as const) {
      const response = await getJson(`${apiA.url}/api/batch/${body.batchId}/${path}`, stranger.key, { method });
      expect(response.status).toBe(404);
      expect(response.body?.code).toBe('not_found');
    }
    const deleted = await getJson(`${apiA.url}/api/batch/${body.batchId}`, stranger.key, { method: 'DELETE' });
    expect(deleted.status).toBe(404);
    const list = await getJson(`${apiA.url}/api/batch`, stranger.key);
    expect(list.body?.items).toEqual([]);

    // Subscribing again and again while the owner's batch is being worked on leaks none of its events.
    const ws = await connectWs(apiB.url, stranger.headers);
    for (let i = 0; i < 8; i++) {
      ws.send({ type: 'subscribe', batchId: body.batchId });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await waitForBatch(apiA.url, owner.key, body.batchId, (status) => status.status === 'completed');
    const messages = await ws.waitFor((all) => all.filter((m) => m.type === 'error').length === 8);
    expect(messages.every((m) => m.type === 'error' && m.code === 'not_found')).toBe(true);
    ws.close();
  });

  it('refuses a WebSocket without credentials, or from a foreign origin, before the upgrade', async () => {
    const owner = await stack.createUser();
    await expect(connectWs(apiB.url, {})).rejects.toThrow(/401/);
    await expect(connectWs(apiB.url, { ...owner.headers, origin: 'https://evil.example' })).rejects.toThrow(/403/);
    const allowed = await connectWs(apiB.url, { ...owner.headers, origin: apiB.url });
    allowed.send({ type: 'ping' });
    await allowed.waitFor((all) => all.some((m) => m.type === 'pong'));
    allowed.close();
  });

  it('warns a client that sends too many messages, then closes it with 1008', async () => {
    const owner = await stack.createUser();
    const ws = await connectWs(apiB.url, owner.headers);
    const closed = new Promise<number>((resolve) => ws.socket.once('close', (code) => resolve(code)));
    for (let i = 0; i < 31; i++) ws.send({ type: 'ping' });
    await ws.waitFor((all) => all.some((m) => m.type === 'error' && m.code === 'rate_limited'));
    for (let i = 0; i < 40; i++) ws.send({ type: 'ping' });
    expect(await closed).toBe(1008);
  });

  it('counts connections and rooms in the metrics, and forgets them when clients leave', async () => {
    const owner = await stack.createUser();
    const own = await stack.startApi();
    const gauge = async (name: string) => {
      const text = await (await fetch(`${own.url}/metrics`)).text();
      return Number(text.match(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)`, 'm'))?.[1]);
    };
    const { body } = await upload(own.url, owner.key, [
      { name: 'm.png', bytes: await photo('png', 700), type: 'image/png' },
    ]);
    const first = await connectWs(own.url, owner.headers);
    const second = await connectWs(own.url, owner.headers);
    first.send({ type: 'subscribe', batchId: body.batchId });
    second.send({ type: 'subscribe', batchId: body.batchId });
    await first.waitFor((all) => all.some((m) => m.type === 'subscribed'));
    await second.waitFor((all) => all.some((m) => m.type === 'subscribed'));
    expect(await gauge('ws_connections')).toBe(2);
    expect(await gauge('ws_rooms')).toBe(1);
    first.close();
    second.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await gauge('ws_connections')).toBe(0);
    expect(await gauge('ws_rooms')).toBe(0);
  });

  it('closes an open connection once its credentials stop working (a deleted key, a ban)', async () => {
    const quick = await stack.startApi({ WS_PING_INTERVAL_MS: '200', WS_PONG_TIMEOUT_MS: '5000' });
    const keyOwner = await stack.createUser();
    const banned = await stack.createUser();
    const byKey = await connectWs(quick.url, keyOwner.headers);
    const byBanned = await connectWs(quick.url, banned.headers);
    const closeCode = (ws: { socket: { once: (event: 'close', listener: (code: number) => void) => void } }) =>
      new Promise<number>((resolve) => ws.socket.once('close', resolve));
    const [keyClosed, banClosed] = [closeCode(byKey), closeCode(byBanned)];

    await stack.platform.db.sql`delete from api_keys where user_id = ${keyOwner.user.id}`;
    await stack.repositories.users.ban(banned.user.id, 'abuse', new Date());
    expect(await keyClosed).toBe(1008);
    expect(await banClosed).toBe(1008);
  });

  it('pings every connection and closes one that stops answering', async () => {
    const owner = await stack.createUser();
    const quick = await stack.startApi({ WS_PING_INTERVAL_MS: '200', WS_PONG_TIMEOUT_MS: '700' });
    const answering = await connectWs(quick.url, owner.headers);
    const silent = await connectWs(quick.url, owner.headers, { autoPong: false });
    let pings = 0;
    silent.socket.on('ping', () => {
      pings += 1;
    });
    const closed = await new Promise<number>((resolve) => silent.socket.once('close', (code) => resolve(code)));
    expect(closed).toBe(1006);
    expect(pings).toBeGreaterThanOrEqual(2);
    expect(answering.socket.readyState).toBe(answering.socket.OPEN);
    answering.close();
  });

  it('lists the caller’s batches newest first, and deletes one with its objects', async () => {
    const owner = await stack.createUser();
    const first = await upload(apiA.url, owner.key, [
      { name: 'l1.png', bytes: await photo('png', 600), type: 'image/png' },
    ]);
    const second = await upload(apiA.url, owner.key, [
      { name: 'l2.png', bytes: await photo('png', 601), type: 'image/png' },
    ]);
    const list = await getJson(`${apiA.url}/api/batch?limit=1`, owner.key);
    expect(list.body?.items.map((item: { batchId: string }) => item.batchId)).toEqual([second.body.batchId]);
    expect(list.body?.nextCursor).toBeTruthy();
    const next = await getJson(
      `${apiA.url}/api/batch?limit=1&cursor=${encodeURIComponent(list.body?.nextCursor)}`,
      owner.key,
    );
    expect(next.body?.items.map((item: { batchId: string }) => item.batchId)).toEqual([first.body.batchId]);

    const ws = await connectWs(apiB.url, owner.headers);
    ws.send({ type: 'subscribe', batchId: first.body.batchId });
    await ws.waitFor((all) => all.some((m) => m.type === 'subscribed'));
    const deleted = await getJson(`${apiA.url}/api/batch/${first.body.batchId}`, owner.key, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    await ws.waitFor((all) => all.some((m) => m.type === 'unsubscribed' && m.batchId === first.body.batchId));
    expect((await getJson(`${apiA.url}/api/batch/${first.body.batchId}/status`, owner.key)).status).toBe(404);
    const key = imageObjectKey(owner.user.id, first.body.accepted[0].imageId);
    expect(await stack.platform.store.stat(key)).toBeNull();
    ws.close();
  });
});
