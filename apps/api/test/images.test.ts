import { IMAGE_EVENTS } from '@renamer/domain';
import { testDir } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, connectWs, getJson, type Json, startApiStack, upload, waitForBatch } from './support/api-stack';
import { photo } from './support/images';

let stack: ApiStack;
let api: { url: string };

beforeAll(async () => {
  stack = await startApiStack('images');
  api = await stack.startApi();
  // The real analysis, in a worker process of its own, as in production.
  await stack.startWorker({ WORK_DIR: testDir('images-worker') });
}, 60_000);

afterAll(() => stack?.close());

type User = Awaited<ReturnType<ApiStack['createUser']>>;
let seed = 0;

/** A batch of JPEGs uploaded under these names and analysed by the worker: every image `ready`. */
async function readyBatch(owner: User, names: string[], keywords = 'red shoes') {
  const files = await Promise.all(
    names.map(async (name) => ({ name, bytes: await photo('jpeg', ++seed), type: 'image/jpeg' })),
  );
  const { status, body } = await upload(api.url, owner.key, files, { keywords });
  expect(status).toBe(201);
  await waitForBatch(api.url, owner.key, body.batchId, (batch) => batch.status === 'completed');
  const byName = new Map<string, Json>();
  for (const accepted of body.accepted) {
    byName.set(accepted.originalFilename, (await call(owner, 'GET', `/api/image/${accepted.imageId}`)).body!);
  }
  return { batchId: body.batchId as string, images: names.map((name) => byName.get(name)!) };
}

async function call(user: User, method: string, path: string, body?: unknown) {
  return getJson(`${api.url}${path}`, user.key, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
}

const rename = (user: User, imageId: string, filename: unknown) =>
  call(user, 'PUT', `/api/image/${imageId}/filename`, { filename });

const historyOf = async (user: User, imageId: string) =>
  (await call(user, 'GET', `/api/image/${imageId}`)).body!.history as Json[];

describe('reading images', () => {
  it('shows an analysed image with the proposal in its history', async () => {
    const owner = await stack.createUser();
    const {
      batchId,
      images: [image],
    } = await readyBatch(owner, ['IMG_0001.JPG']);

    expect(image).toMatchObject({
      batchId,
      status: 'ready',
      originalFilename: 'IMG_0001.JPG',
      filename: image!.proposedFilename,
      approved: false,
      approvedAt: null,
      mimeType: 'image/jpeg',
      metadata: { format: 'jpeg', width: 64, height: 64 },
      error: null,
    });
    expect(image!.filename).toMatch(/^red-shoes.*\.jpg$/);
    expect(image!.seo).toMatchObject({ score: expect.any(Number), reasons: expect.any(Array) });
    expect(image!.seo.reasons.map((reason: { rule: string }) => reason.rule)).toContain('keyword_present');
    expect(image!.safety).toEqual({ unsafe: false, score: expect.any(Number) });
    expect(image!.history).toEqual([
      { from: null, to: image!.filename, source: 'proposal', by: null, at: expect.any(String) },
    ]);
  });

  it('pages through a batch in a stable order, filtered by status, and refuses a cursor it did not issue', async () => {
    const owner = await stack.createUser();
    const { batchId, images } = await readyBatch(owner, ['a.jpg', 'b.jpg', 'c.jpg']);
    const list = (query: string) => call(owner, 'GET', `/api/image/batch/${batchId}?${query}`);

    const first = await list('limit=2');
    const second = await list(`limit=2&cursor=${first.body!.nextCursor}`);
    expect(first.body!.items).toHaveLength(2);
    expect(second.body).toMatchObject({ nextCursor: null });
    const ids = [...first.body!.items, ...second.body!.items].map((item: Json) => item.id);
    expect(new Set(ids)).toEqual(new Set(images.map((image) => image!.id)));
    expect((await list('limit=100')).body!.items.map((item: Json) => item.id)).toEqual(ids);
    expect(first.body!.items[0]).not.toHaveProperty('history');

    expect((await list('status=approved')).body).toEqual({ items: [], nextCursor: null });
    await call(owner, 'POST', `/api/image/${images[1]!.id}/approve`);
    const approved = (await list('status=approved')).body!.items;
    expect(approved.map((item: Json) => [item.id, item.approved])).toEqual([[images[1]!.id, true]]);

    const forged = Buffer.from(JSON.stringify(['not a date', images[0]!.id])).toString('base64url');
    expect((await list(`cursor=${forged}`)).body).toMatchObject({ status: 400, code: 'invalid_cursor' });
    expect((await list('status=finished')).body).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});

describe('changing names', () => {
  it('renames, approves, unapproves and reverts, each change of name leaving its history', async () => {
    const owner = await stack.createUser();
    const {
      batchId,
      images: [image],
    } = await readyBatch(owner, ['IMG_4411.JPG']);
    const id = image!.id;
    const proposed = image!.proposedFilename;

    const renamed = await rename(owner, id, '  Red Running Shoes.PNG ');
    expect(renamed.status).toBe(200);
    // The extension follows the sniffed format (JPEG), not what was typed.
    expect(renamed.body).toMatchObject({
      filename: 'red-running-shoes.jpg',
      proposedFilename: proposed,
      status: 'ready',
    });
    // The score is of the name the person typed: the batch's keyword "red shoes" is in it.
    expect(renamed.body!.seo.reasons).toContainEqual(
      expect.objectContaining({ rule: 'keyword_present', passed: true }),
    );

    const approved = await call(owner, 'POST', `/api/image/${id}/approve`);
    expect(approved.body).toMatchObject({ status: 'approved', approved: true, filename: 'red-running-shoes.jpg' });
    expect(Date.parse(approved.body!.approvedAt)).not.toBeNaN();
    expect((await call(owner, 'GET', `/api/batch/${batchId}/status`)).body).toMatchObject({
      status: 'completed',
      processed: 1,
      counts: { ready: 0, approved: 1 },
    });

    const unapproved = await call(owner, 'POST', `/api/image/${id}/unapprove`);
    expect(unapproved.body).toMatchObject({ status: 'ready', approved: false, approvedAt: null });
    expect(unapproved.body!.filename).toBe('red-running-shoes.jpg');

    await call(owner, 'POST', `/api/image/${id}/approve`);
    // Renaming an approved image takes it back to ready.
    const renamedAgain = await rename(owner, id, 'running shoes on a track');
    expect(renamedAgain.body).toMatchObject({
      filename: 'running-shoes-on-a-track.jpg',
      status: 'ready',
      approvedAt: null,
    });

    await call(owner, 'POST', `/api/image/${id}/approve`);
    const original = await call(owner, 'POST', `/api/image/${id}/revert`);
    // The uploaded name, though only generic words the rules would refuse, lowercased and path-safe.
    expect(original.body).toMatchObject({ filename: 'img-4411.jpg', status: 'ready', approved: false });

    const back = await call(owner, 'POST', `/api/image/${id}/revert`, { to: 'proposed' });
    expect(back.body).toMatchObject({ filename: proposed, status: 'ready' });

    expect((await call(owner, 'POST', `/api/image/${id}/revert`, { to: 'original' })).body!.filename).toBe(
      'img-4411.jpg',
    );
    const history = await historyOf(owner, id);
    expect(history.map(({ from, to, source, by }) => ({ from, to, source, by }))).toEqual([
      { from: proposed, to: 'img-4411.jpg', source: 'revert', by: owner.user.id },
      { from: 'img-4411.jpg', to: proposed, source: 'revert', by: owner.user.id },
      { from: 'running-shoes-on-a-track.jpg', to: 'img-4411.jpg', source: 'revert', by: owner.user.id },
      { from: 'red-running-shoes.jpg', to: 'running-shoes-on-a-track.jpg', source: 'user', by: owner.user.id },
      { from: proposed, to: 'red-running-shoes.jpg', source: 'user', by: owner.user.id },
      { from: null, to: proposed, source: 'proposal', by: null },
    ]);
    const times = history.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('answers the score of the name the person typed, lower for a worse name', async () => {
    const owner = await stack.createUser();
    const {
      images: [image],
    } = await readyBatch(owner, ['IMG_4412.JPG']);
    const good = await rename(owner, image!.id, 'red running shoes on a track');
    const generic = await rename(owner, image!.id, 'shoes img 4411');

    expect(generic.body!.seo.score).toBeLessThan(good.body!.seo.score);
    expect(generic.body!.seo.reasons).toContainEqual(
      expect.objectContaining({ rule: 'no_generic_words', passed: false }),
    );
    expect((await call(owner, 'GET', `/api/image/${image!.id}`)).body!.seo).toEqual(generic.body!.seo);
  });

  it('leaves everything as it is for the name the image already has', async () => {
    const owner = await stack.createUser();
    const {
      images: [image],
    } = await readyBatch(owner, ['same.jpg']);
    await call(owner, 'POST', `/api/image/${image!.id}/approve`);

    const again = await rename(owner, image!.id, image!.filename.replace('.jpg', ''));

    expect(again.body).toMatchObject({ status: 'approved', filename: image!.filename });
    expect(await historyOf(owner, image!.id)).toHaveLength(1);
  });

  const E = (typed: string, message: RegExp) => [typed, message] as const;
  it.each([
    E('', /Nothing is left/),
    E('   ', /Nothing is left/),
    E('東京', /Nothing is left/),
    E('IMG_1234 copy.JPG', /only generic words/),
    E('untitled photo', /only generic words/),
    E('con', /reserved device name/),
    E('LPT1.jpg', /reserved device name/),
    E('../../etc/passwd', /path separator/),
    E('shoes\\red', /path separator/),
    E('red\nshoes', /control character/),
    E('red\u0000shoes', /control character/),
    E('invoice\u202egpj.exe', /bidirectional control/),
    E('x'.repeat(61), /longer than 60 characters/),
    E('sunset over the mountains with golden light reflecting on calm lake water', /longer than 60/),
  ])('refuses %j as invalid_filename with the reason, and keeps the name', async (typed, message) => {
    const owner = await stack.createUser();
    const {
      images: [image],
    } = await readyBatch(owner, ['keep.jpg']);

    const { status, body } = await rename(owner, image!.id, typed);

    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_filename', detail: expect.stringMatching(message) });
    expect(body!.errors).toEqual([
      { path: 'filename', message: expect.stringMatching(message), code: 'invalid_filename' },
    ]);
    const after = (await call(owner, 'GET', `/api/image/${image!.id}`)).body!;
    expect(after).toMatchObject({ filename: image!.filename, status: 'ready' });
    expect(after.history).toHaveLength(1);
  });

  it('refuses a body without a filename string as validation_failed', async () => {
    const owner = await stack.createUser();
    const {
      images: [image],
    } = await readyBatch(owner, ['body.jpg']);
    for (const body of [{}, { filename: 42 }, { filename: null }]) {
      const answer = await call(owner, 'PUT', `/api/image/${image!.id}/filename`, body);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ status: 400, code: 'validation_failed' });
    }
  });

  it('answers 409 filename_conflict for a name another image of the batch holds, by rename or revert', async () => {
    const owner = await stack.createUser();
    const {
      images: [beach, other, shouting],
    } = await readyBatch(owner, ['beach.jpg', 'other.jpg', 'BEACH.jpeg']);

    // Naming the batch as a whole may already have renumbered the proposals (which image took the plain name
    // depends on the order the analyses finished): what counts is that the refused changes add nothing.
    const [otherBefore, shoutingBefore] = [await historyOf(owner, other!.id), await historyOf(owner, shouting!.id)];
    const taken = await rename(owner, other!.id, beach!.filename);
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'filename_conflict' });

    expect((await call(owner, 'POST', `/api/image/${beach!.id}/revert`)).body!.filename).toBe('beach.jpg');
    const revert = await call(owner, 'POST', `/api/image/${shouting!.id}/revert`, { to: 'original' });
    expect(revert.status).toBe(409);
    expect(revert.body).toMatchObject({ code: 'filename_conflict' });

    expect((await call(owner, 'GET', `/api/image/${other!.id}`)).body).toMatchObject({
      filename: other!.filename,
      history: otherBefore,
    });
    expect(otherBefore.every((change) => change.source === 'proposal')).toBe(true);
    expect(await historyOf(owner, shouting!.id)).toEqual(shoutingBefore);
  });

  it('lets exactly one of two renames racing for one name through', async () => {
    const owner = await stack.createUser();
    const {
      images: [a, b],
    } = await readyBatch(owner, ['one.jpg', 'two.jpg']);

    for (let round = 0; round < 3; round++) {
      const name = `sunny beach round ${round + 1}`;
      const answers = await Promise.all([rename(owner, a!.id, name), rename(owner, b!.id, name)]);

      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const loser = answers.find((answer) => answer.status === 409)!;
      expect(loser.body).toMatchObject({ code: 'filename_conflict' });
      const winner = answers.find((answer) => answer.status === 200)!;
      expect(winner.body!.filename).toBe(`sunny-beach-round-${round + 1}.jpg`);
      expect(winner.body!.history[0]).toMatchObject({ to: winner.body!.filename, source: 'user' });
    }
    const names = await Promise.all([a, b].map(async (image) => (await historyOf(owner, image!.id))[0]!.to));
    expect(new Set(names).size).toBe(2);
  });

  it('approves a whole batch in one go, or only the listed images, and broadcasts each change', async () => {
    const owner = await stack.createUser();
    const { batchId, images } = await readyBatch(owner, ['p.jpg', 'q.jpg', 'r.jpg']);
    const ws = await connectWs(api.url, owner.headers);
    ws.send({ type: 'subscribe', batchId });
    await ws.waitFor((all) => all.some((message) => message.type === 'subscribed'));

    const some = await call(owner, 'POST', `/api/image/batch/${batchId}/approve`, { imageIds: [images[0]!.id] });
    expect(some).toEqual({ status: 200, body: { approved: 1 } });
    const rest = await call(owner, 'POST', `/api/image/batch/${batchId}/approve`);
    expect(rest.body).toEqual({ approved: 2 });
    expect((await call(owner, 'POST', `/api/image/batch/${batchId}/approve`, {})).body).toEqual({ approved: 0 });

    expect((await call(owner, 'GET', `/api/batch/${batchId}/status`)).body).toMatchObject({
      status: 'completed',
      progress: 1,
      counts: { ready: 0, approved: 3 },
    });
    const approvedEvents = (all: Json[]) =>
      all.filter((message) => message.type === 'image.status' && message.status === 'approved');
    const messages = await ws.waitFor((all) => approvedEvents(all).length === 3);
    expect(new Set(approvedEvents(messages).map((event) => event.imageId))).toEqual(
      new Set(images.map((image) => image!.id)),
    );
    await ws.waitFor((all) => {
      const last = all.at(-1);
      return last?.type === 'batch.status' && last.status === 'completed';
    });
    ws.close();
    for (const image of images) {
      expect((await call(owner, 'GET', `/api/image/${image!.id}`)).body).toMatchObject({
        status: 'approved',
        approvedAt: expect.any(String),
        history: [{ source: 'proposal' }],
      });
    }
  });
});

describe('images not ready', () => {
  it('answers 409 conflict to renaming, reverting or approving a queued or failed image', async () => {
    // An API instance queueing on a prefix no worker reads: its images stay queued.
    const idle = await stack.startApi({ REDIS_PREFIX: `${stack.env.REDIS_PREFIX}idle:` });
    const owner = await stack.createUser();
    const files = [
      { name: 'waiting.jpg', bytes: await photo('jpeg', ++seed), type: 'image/jpeg' },
      { name: 'broken.jpg', bytes: await photo('jpeg', ++seed), type: 'image/jpeg' },
    ];
    const { body } = await upload(idle.url, owner.key, files, { keywords: 'red shoes' });
    const [queued, failed] = body.accepted.map((file: Json) => file.imageId as string);
    // The broken one fails for good, along the worker's own path: claimed, then its last attempt fails.
    const { images } = stack.repositories;
    await images.startAttempt(failed, IMAGE_EVENTS.claim);
    await images.update(
      failed,
      { status: IMAGE_EVENTS.failedForGood.to },
      { expectStatus: IMAGE_EVENTS.failedForGood.from },
    );

    for (const imageId of [queued, failed]) {
      for (const [method, path, payload] of [
        ['PUT', `/api/image/${imageId}/filename`, { filename: 'red shoes' }],
        ['POST', `/api/image/${imageId}/revert`, undefined],
        ['POST', `/api/image/${imageId}/approve`, undefined],
        ['POST', `/api/image/${imageId}/unapprove`, undefined],
      ] as const) {
        const answer = await call(owner, method, path, payload);
        expect(answer.status, `${method} ${path}`).toBe(409);
        expect(answer.body).toMatchObject({ code: 'conflict' });
      }
    }
    expect((await call(owner, 'POST', `/api/image/batch/${body.batchId}/approve`)).body).toEqual({ approved: 0 });
    expect((await call(owner, 'GET', `/api/image/${queued}`)).body).toMatchObject({
      status: 'queued',
      filename: null,
      proposedFilename: null,
      history: [],
    });
  });
});

describe('another user', () => {
  it('reaches none of it: every read and change is 404 and changes nothing', async () => {
    const owner = await stack.createUser();
    const stranger = await stack.createUser();
    const {
      batchId,
      images: [image],
    } = await readyBatch(owner, ['mine.jpg']);
    const id = image!.id;

    for (const [method, path, payload] of [
      ['GET', `/api/image/${id}`, undefined],
      ['GET', `/api/image/batch/${batchId}`, undefined],
      ['PUT', `/api/image/${id}/filename`, { filename: 'stolen name' }],
      ['POST', `/api/image/${id}/approve`, undefined],
      ['POST', `/api/image/${id}/unapprove`, undefined],
      ['POST', `/api/image/${id}/revert`, { to: 'original' }],
      ['POST', `/api/image/batch/${batchId}/approve`, { imageIds: [id] }],
    ] as const) {
      const answer = await call(stranger, method, path, payload);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toMatchObject({ code: 'not_found' });
    }
    expect((await call(owner, 'GET', `/api/image/${id}`)).body).toMatchObject({
      status: 'ready',
      filename: image!.filename,
      history: [{ source: 'proposal' }],
    });
  });

  it('takes approvals of a batch back in one go (the web app’s undo of Approve all), or only the listed ones, and not another person’s', async () => {
    const owner = await stack.createUser();
    const stranger = await stack.createUser();
    const { batchId, images } = await readyBatch(owner, ['s.jpg', 't.jpg', 'u.jpg']);
    expect((await call(owner, 'POST', `/api/image/batch/${batchId}/approve`)).body).toEqual({ approved: 3 });

    expect((await call(stranger, 'POST', `/api/image/batch/${batchId}/unapprove`)).status).toBe(404);
    const one = await call(owner, 'POST', `/api/image/batch/${batchId}/unapprove`, { imageIds: [images[0]!.id] });
    expect(one).toEqual({ status: 200, body: { unapproved: 1 } });
    expect((await call(owner, 'POST', `/api/image/batch/${batchId}/unapprove`)).body).toEqual({ unapproved: 2 });
    expect((await call(owner, 'POST', `/api/image/batch/${batchId}/unapprove`, {})).body).toEqual({ unapproved: 0 });
    expect((await call(owner, 'GET', `/api/batch/${batchId}/status`)).body).toMatchObject({
      counts: { ready: 3, approved: 0 },
    });
    for (const image of images) {
      expect((await call(owner, 'GET', `/api/image/${image!.id}`)).body).toMatchObject({
        status: 'ready',
        approvedAt: null,
        filename: image!.filename,
      });
    }
  });
});
