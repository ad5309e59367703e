import { connect } from 'node:net';
import { closeQueues, createQueues, type Queues } from '@renamer/jobs';
import { imageObjectKey } from '@renamer/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, getJson, type Json, startApiStack, upload } from './support/api-stack';
import { photo } from './support/images';

let stack: ApiStack;
let api: { url: string };
let queues: Queues;

beforeAll(async () => {
  stack = await startApiStack('bad-input');
  api = await stack.startApi();
  queues = createQueues(stack.platform.redis, stack.env.REDIS_PREFIX);
}, 60_000);

afterAll(async () => {
  if (queues) await closeQueues(queues);
  await stack?.close();
});

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('a list cursor the service did not issue', () => {
  it.each([
    ['garbage', 'garbage'],
    ['base64url of a broken JSON text', 'eyJ9'],
    ['a broken percent-encoding', '%E0%A4%A'],
    ['fields that are not a date and an id', cursorOf(['yesterday', 'me'])],
    ['an id that is not a UUID', cursorOf(['2026-01-01T00:00:00.000Z', 'me'])],
    ['a date PostgreSQL cannot hold', cursorOf(['-271821-04-20T00:00:00.000Z', crypto.randomUUID()])],
    ['an object instead of a pair', cursorOf({ createdAt: '2026-01-01T00:00:00.000Z', id: crypto.randomUUID() })],
  ])('is a 400 invalid_cursor problem (%s)', async (_what, cursor) => {
    const { key } = await stack.createUser();
    const response = await fetch(`${api.url}/api/batch?cursor=${cursor}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 400, code: 'invalid_cursor', requestId: expect.any(String) });
  });

  it('still pages with the cursors it issues', async () => {
    const { key, user } = await stack.createUser();
    const created = [
      await stack.repositories.batches.create({ userId: user.id, total: 1 }),
      await stack.repositories.batches.create({ userId: user.id, total: 1 }),
    ];
    const first = await getJson(`${api.url}/api/batch?limit=1`, key);
    const second = await getJson(`${api.url}/api/batch?limit=1&cursor=${first.body?.nextCursor}`, key);
    expect(second).toMatchObject({ status: 200, body: { nextCursor: null } });
    const listed = [first, second].flatMap(({ body }) => body?.items.map((batch: Json) => batch.batchId));
    expect(listed.sort()).toEqual(created.map((batch) => batch.id).sort());
  });
});

describe('control characters in names and identifiers', () => {
  it.each(['a\u0000b', 'a\u0007b', 'line\nbreak', 'esc\u001b[31m'])('refuses an API key named %j', async (name) => {
    const { key } = await stack.createUser();
    const created = await getJson(`${api.url}/api/auth/api-keys`, key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(created).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    const keys = await getJson(`${api.url}/api/auth/api-keys`, key);
    expect(keys.body?.items.map((item: { name: string }) => item.name)).toEqual(['test']);
  });

  it.each(['a\u0000b', 'tab\there'])('refuses the display name %j', async (displayName) => {
    const { key, user } = await stack.createUser();
    const renamed = await getJson(`${api.url}/api/auth/me`, key, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ displayName }),
    });
    expect(renamed).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect((await getJson(`${api.url}/api/auth/me`, key)).body?.displayName).toBe(user.displayName);
  });

  it.each([
    ['name', 'Summer\u0000shop'],
    ['name', 'two\nlines'],
    ['keywords', 'red shoes, be\u0000ach'],
    ['keywords', 'red\u0007shoes'],
    ['locale', 'en\u0000'],
    ['context', 'mugs\u0000for a shop'],
    ['context', 'x'.repeat(501)],
  ])('refuses an upload whose %s is %j and keeps nothing', async (field, value) => {
    const { key, user } = await stack.createUser();
    const files = [{ name: 'shop.jpg', bytes: await photo('jpeg', 11), type: 'image/jpeg' }];
    const { status, body } = await upload(api.url, key, files, { [field]: value });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'validation_failed', errors: [{ path: expect.stringContaining(field) }] });
    expect((await getJson(`${api.url}/api/batch`, key)).body?.items).toEqual([]);
    expect(await stack.storedKeys(user.id)).toEqual([]);
    expect(stack.leftoverSpoolFiles()).toEqual([]);
  });

  it.each(['nul\u0000.jpg', 'bell\u0007.jpg', 'esc\u001b[2J.jpg', 'del\u007f.jpg'])(
    'refuses the file named %j alone and stores the others',
    async (badName) => {
      const { key, user } = await stack.createUser();
      const files = [
        { name: badName, bytes: await photo('jpeg', 21), type: 'image/jpeg' },
        { name: 'fine.jpg', bytes: await photo('jpeg', 22), type: 'image/jpeg' },
      ];
      const { status, body } = await upload(api.url, key, files);
      expect(status).toBe(201);
      expect(body.accepted).toEqual([{ imageId: expect.any(String), originalFilename: 'fine.jpg' }]);
      expect(body.rejected).toEqual([
        { originalFilename: badName, code: 'invalid_filename', detail: expect.any(String) },
      ]);
      expect(await stack.storedKeys(user.id)).toEqual([imageObjectKey(user.id, body.accepted[0].imageId)]);
      expect(stack.leftoverSpoolFiles()).toEqual([]);
    },
  );

  it('answers 422 upload_rejected when the only file has a control character in its name', async () => {
    const { key, user } = await stack.createUser();
    const files = [{ name: 'a\u0000b.jpg', bytes: await photo('jpeg', 31), type: 'image/jpeg' }];
    const { status, body } = await upload(api.url, key, files);
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 'upload_rejected', errors: [{ code: 'invalid_filename' }] });
    expect((await getJson(`${api.url}/api/batch`, key)).body?.items).toEqual([]);
    expect(await stack.storedKeys(user.id)).toEqual([]);
  });
});

describe('a multipart body the parser cannot read', () => {
  const CRLF = '\r\n';
  const filePart = (boundary: string, name: string, bytes: Buffer) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}${CRLF}Content-Disposition: form-data; name="files"; filename="${name}"${CRLF}` +
          `Content-Type: image/jpeg${CRLF}${CRLF}`,
      ),
      bytes,
    ]);
  /** A whole form: each file part, then the closing delimiter. */
  const formBody = (boundary: string, files: { name: string; bytes: Buffer }[]) =>
    Buffer.concat([
      ...files.map(({ name, bytes }) => Buffer.concat([filePart(boundary, name, bytes), Buffer.from(CRLF)])),
      Buffer.from(`--${boundary}--${CRLF}`),
    ]);

  /**
   * `POST /api/batch` written by hand on a socket: the body's chunks go out 150 ms apart, so the API reads
   * the first before the next arrives. With `hangUp` the client leaves after the last chunk, short of the
   * declared length; otherwise the answer is read.
   */
  async function rawUpload(key: string, contentType: string, chunks: Buffer[], { hangUp = false } = {}) {
    const { port } = new URL(api.url);
    const socket = connect(Number(port), '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (data) => received.push(data));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0) + (hangUp ? 1024 : 0);
    socket.write(
      `POST /api/batch HTTP/1.1${CRLF}host: 127.0.0.1${CRLF}authorization: Bearer ${key}${CRLF}` +
        `content-type: ${contentType}${CRLF}content-length: ${length}${CRLF}connection: close${CRLF}${CRLF}`,
    );
    for (const chunk of chunks) {
      socket.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    if (hangUp) socket.destroy();
    await ended;
    const [head = '', body = ''] = Buffer.concat(received)
      .toString()
      .split(CRLF + CRLF);
    return {
      status: Number(head.split(' ')[1]),
      type: /^content-type: (.*)$/im.exec(head)?.[1],
      body: body ? (JSON.parse(body) as Json) : null,
    };
  }

  async function queuedJobs() {
    const counts = await Promise.all(Object.values(queues).map((queue) => queue.getJobCounts()));
    return counts.flatMap((byState) => Object.values(byState)).reduce((sum, count) => sum + count, 0);
  }

  /** No temporary file, object, row or job is left of the user's upload (the API may still be cleaning up). */
  async function expectNothingLeft(userId: string, jobsBefore: number) {
    await expect.poll(() => stack.leftoverSpoolFiles(), { timeout: 5_000 }).toEqual([]);
    expect(await stack.storedKeys(userId)).toEqual([]);
    expect(await stack.platform.db.sql`select id from batches where user_id = ${userId}`).toEqual([]);
    expect(await stack.platform.db.sql`select id from images where user_id = ${userId}`).toEqual([]);
    expect(await queuedJobs()).toBe(jobsBefore);
  }

  const photos = async () => ({
    first: { name: 'first.jpg', bytes: await photo('jpeg', 41, 256) },
    second: { name: 'second.jpg', bytes: await photo('jpeg', 42, 256) },
  });
  const halves = (bytes: Buffer) => [bytes.subarray(0, bytes.length / 2), bytes.subarray(bytes.length / 2)] as const;

  it.each([
    [
      'without a boundary',
      async () => {
        const { first, second } = await photos();
        return { contentType: 'multipart/form-data', chunks: [formBody('b0undary', [first, second])] };
      },
      /must name the boundary/,
    ],
    [
      'with a boundary the body never uses',
      async () => {
        const { first, second } = await photos();
        return { contentType: 'multipart/form-data; boundary=declared', chunks: [formBody('actual', [first, second])] };
      },
      /no part delimited by the boundary/,
    ],
    [
      'ending in the middle of a file, after a whole one',
      async () => {
        const { first, second } = await photos();
        const [start] = halves(second.bytes);
        return {
          contentType: 'multipart/form-data; boundary=b0undary',
          chunks: [
            Buffer.concat([filePart('b0undary', first.name, first.bytes), Buffer.from(CRLF)]),
            filePart('b0undary', second.name, start),
          ],
        };
      },
      /ended in the middle of a part/,
    ],
    [
      'ending in the middle of a file that is being spooled',
      async () => {
        const { first } = await photos();
        const [start, rest] = halves(first.bytes);
        const [middle] = halves(rest);
        return {
          contentType: 'multipart/form-data; boundary=b0undary',
          chunks: [filePart('b0undary', first.name, start), middle],
        };
      },
      /ended in the middle of a part/,
    ],
    [
      'with a field declared as JSON that is not',
      async () => {
        const { first } = await photos();
        const field = Buffer.from(
          `--b0undary${CRLF}Content-Disposition: form-data; name="keywords"${CRLF}` +
            `Content-Type: application/json${CRLF}${CRLF}{red shoes${CRLF}`,
        );
        return {
          contentType: 'multipart/form-data; boundary=b0undary',
          chunks: [Buffer.concat([field, formBody('b0undary', [first])])],
        };
      },
      /not a valid JSON/,
    ],
  ])('is a 400 validation_failed problem (%s) and leaves nothing behind', async (_what, request, detail) => {
    const { key, user } = await stack.createUser();
    const jobsBefore = await queuedJobs();
    const { contentType, chunks } = await request();
    const answer = await rawUpload(key, contentType, chunks);
    expect(answer).toMatchObject({
      status: 400,
      type: expect.stringContaining('application/problem+json'),
      body: { code: 'validation_failed', requestId: expect.any(String), detail: expect.stringMatching(detail) },
    });
    await expectNothingLeft(user.id, jobsBefore);
  });

  it('leaves nothing behind when the client hangs up in the middle of a file', async () => {
    const { key, user } = await stack.createUser();
    const jobsBefore = await queuedJobs();
    const { first, second } = await photos();
    const [start] = halves(second.bytes);
    await rawUpload(
      key,
      'multipart/form-data; boundary=b0undary',
      [
        Buffer.concat([filePart('b0undary', first.name, first.bytes), Buffer.from(CRLF)]),
        filePart('b0undary', second.name, start),
      ],
      { hangUp: true },
    );
    await expectNothingLeft(user.id, jobsBefore);
  });
});
