import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DownloadWorld, startDownloadWorld } from './downloads-world';
import { photo } from './support';

type Owner = Awaited<ReturnType<DownloadWorld['stack']['createUser']>>;
type Listed = {
  id: string;
  kind: string;
  batchId: string | null;
  imageId?: string;
  options: Record<string, unknown>;
  entries: number | null;
  bytes: number | null;
  createdAt: string;
  expiresAt: string;
  completedAt: string | null;
};

describe('GET /api/downloads', () => {
  let world: DownloadWorld;
  let owner: Owner;
  let stranger: Owner;
  let batch: Awaited<ReturnType<DownloadWorld['uploadAnalysed']>>;

  const list = async (key: string, query = '') => {
    const { status, body } = await world.get(`/api/downloads${query}`, key);
    return { status, body: body as { items: Listed[]; nextCursor: string | null } & Record<string, unknown> };
  };

  beforeAll(async () => {
    world = await startDownloadWorld('downloads-list', 'fs');
    [owner, stranger] = await Promise.all([world.stack.createUser(), world.stack.createUser()]);
    batch = await world.uploadAnalysed(owner.key, [
      { name: 'harbour.png', bytes: await photo('png', 41), type: 'image/png' },
      { name: 'pier.png', bytes: await photo('png', 42), type: 'image/png' },
    ]);
  }, 90_000);
  afterAll(() => world?.close());

  it('lists a fetched image link and a fetched ZIP newest first, with their options, entries, bytes and completion', async () => {
    const [first, second] = batch.images;
    // Asked for and never fetched: nothing sent yet.
    const idle = await world.get(`/api/image/${second!.imageId}/download`, owner.key);
    expect(idle.status).toBe(200);

    const single = await world.get(`/api/image/${first!.imageId}/download?embed=true`, owner.key);
    expect(single.status).toBe(200);
    const imageBytes = Buffer.from(await (await fetch(single.body!.url)).arrayBuffer());

    const zip = await world.get(`/api/batch/${batch.batchId}/download?manifest=true`, owner.key, { method: 'POST' });
    expect(zip.status).toBe(200);
    const zipBytes = Buffer.from(await (await fetch(zip.body!.url)).arrayBuffer());
    expect(zipBytes.length).toBeGreaterThan(0);

    // The byte count is written once the response stream closes, a moment after the client read the last byte.
    const listed = await vi.waitFor(
      async () => {
        const { status, body } = await list(owner.key);
        expect(status).toBe(200);
        expect(body.items[0]?.completedAt).not.toBeNull();
        expect(body.items[1]?.completedAt).not.toBeNull();
        return body;
      },
      { timeout: 10_000 },
    );
    expect(listed.nextCursor).toBeNull();
    expect(listed.items).toHaveLength(3);
    const [archive, image, unfetched] = listed.items;
    expect(archive).toMatchObject({
      kind: 'archive',
      batchId: batch.batchId,
      options: { embed: false, strip: 'none', approvedOnly: false, manifest: true },
      entries: 2,
      bytes: zipBytes.length,
      expiresAt: zip.body!.expiresAt,
    });
    expect(archive).not.toHaveProperty('imageId');
    expect(image).toMatchObject({
      kind: 'image',
      batchId: batch.batchId,
      imageId: first!.imageId,
      options: { embed: true, strip: 'none' },
      entries: 1,
      bytes: imageBytes.length,
      expiresAt: single.body!.expiresAt,
    });
    expect(unfetched).toMatchObject({
      kind: 'image',
      batchId: batch.batchId,
      imageId: second!.imageId,
      options: { embed: false, strip: 'none' },
      entries: 1,
      bytes: null,
      completedAt: null,
    });
    // Newest first, and each completion after its creation.
    const created = listed.items.map((item) => Date.parse(item.createdAt));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    for (const item of [archive!, image!]) {
      expect(Date.parse(item.completedAt!)).toBeGreaterThanOrEqual(Date.parse(item.createdAt));
    }
  });

  it('records what the copies are made with: strip on an image, the web-ready settings on an archive', async () => {
    const [first] = batch.images;
    expect((await world.get(`/api/image/${first!.imageId}/download?strip=location`, owner.key)).status).toBe(200);
    const query = 'approvedOnly=false&strip=all&resize=64&format=webp&quality=70';
    const zip = await world.get(`/api/batch/${batch.batchId}/download?${query}`, owner.key, { method: 'POST' });
    expect(zip.status).toBe(200);
    const { body } = await list(owner.key, '?limit=2');
    expect(body.items).toMatchObject([
      {
        kind: 'archive',
        entries: 2,
        options: {
          embed: false,
          strip: 'all',
          approvedOnly: false,
          manifest: false,
          resize: 64,
          format: 'webp',
          quality: 70,
        },
        bytes: null,
        completedAt: null,
      },
      { kind: 'image', imageId: first!.imageId, entries: 1, options: { embed: false, strip: 'location' } },
    ]);
  });

  it('never shows another user’s downloads, and shows a person without any an empty list', async () => {
    expect(await list(stranger.key)).toEqual({ status: 200, body: { items: [], nextCursor: null } });
    const theirs = await world.uploadAnalysed(stranger.key, [
      { name: 'theirs.png', bytes: await photo('png', 43), type: 'image/png' },
    ]);
    expect((await world.get(`/api/batch/${theirs.batchId}/download`, stranger.key, { method: 'POST' })).status).toBe(
      200,
    );
    const { body: strangers } = await list(stranger.key);
    expect(strangers.items.map((item) => item.batchId)).toEqual([theirs.batchId]);
    const { body: owners } = await list(owner.key);
    expect(owners.items.every((item) => item.batchId === batch.batchId)).toBe(true);
    expect(owners.items.map((item) => item.id)).not.toContain(strangers.items[0]!.id);
  });

  it('pages with limit and cursor, each download once, and refuses a cursor it did not issue', async () => {
    const { body: all } = await list(owner.key, '?limit=100');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await list(owner.key, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(status).toBe(200);
      expect(body.items.length).toBeLessThanOrEqual(2);
      seen.push(...body.items.map((item) => item.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((item) => item.id));
    expect(seen.length).toBeGreaterThanOrEqual(3);

    const bad = await list(owner.key, '?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_cursor' });
    const tooMany = await list(owner.key, '?limit=101');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: 'validation_failed' });
  });

  it('keeps a download in the list after its batch is deleted, with the batch gone from it and its link dead', async () => {
    const leaver = await world.stack.createUser();
    const doomed = await world.uploadAnalysed(leaver.key, [
      { name: 'dune.png', bytes: await photo('png', 44), type: 'image/png' },
    ]);
    const zip = await world.get(`/api/batch/${doomed.batchId}/download`, leaver.key, { method: 'POST' });
    const image = await world.get(`/api/image/${doomed.images[0]!.imageId}/download?strip=all`, leaver.key);
    const served = Buffer.from(await (await fetch(zip.body!.url)).arrayBuffer());
    const sent = await vi.waitFor(
      async () => {
        const [archive] = (await list(leaver.key)).body.items.filter((item) => item.kind === 'archive');
        expect(archive?.completedAt).not.toBeNull();
        return archive!;
      },
      { timeout: 10_000 },
    );
    expect(sent.bytes).toBe(served.length);

    const deleted = await world.get(`/api/batch/${doomed.batchId}`, leaver.key, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    const { body } = await list(leaver.key);
    expect(body.items).toHaveLength(2);
    expect(body.items.every((item) => item.batchId === null)).toBe(true);
    const archive = body.items.find((item) => item.id === sent.id);
    expect(archive).toMatchObject({ kind: 'archive', bytes: served.length, completedAt: sent.completedAt, entries: 1 });
    const single = body.items.find((item) => item.kind === 'image');
    expect(single).toMatchObject({ options: { embed: false, strip: 'all' }, entries: 1 });
    expect(single).not.toHaveProperty('imageId');
    for (const url of [zip.body!.url, image.body!.url]) {
      const again = await fetch(url);
      expect(again.status).toBe(404);
      expect(again.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it('asks for credentials first', async () => {
    const response = await fetch(`${world.api.url}/api/downloads?cursor=not-a-cursor`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
  });
});
