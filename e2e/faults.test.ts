import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { connectWs, photo, upload, waitForBatch } from '@renamer/api/testing';
import { freePort, spawnService, waitForStatus } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createQueues } from '../packages/jobs/src/queues';
import { type PipelineStack, SLOW_WORKER_ENTRY, startPipelineStack } from './support/pipeline-stack';

/**
 * Faults lose nothing: processes killed or stopped in the middle of their work, each test with processes of its
 * own over the stack's PostgreSQL database, Redis prefix and store.
 */

const API_ENTRY = fileURLToPath(new URL('../apps/api/src/server.ts', import.meta.url));
let stack: PipelineStack;
let apiUrl: string;

beforeAll(async () => {
  stack = await startPipelineStack('faults');
  apiUrl = (await stack.startApi()).url;
}, 60_000);
afterAll(() => stack?.close());

const photos = (seeds: number[]) =>
  Promise.all(
    seeds.map(async (seed) => ({ name: `IMG_${seed}.JPG`, type: 'image/jpeg', bytes: await photo('jpeg', seed) })),
  );

/** The `n` of a `select count(*)::int as n` query. */
const countOf = async (rows: PromiseLike<readonly Record<string, unknown>[]>) => Number((await rows)[0]?.n);

/** BullMQ's own count of the jobs of every queue still marked active. */
async function activeJobs(): Promise<number> {
  const queues = createQueues({ url: stack.env.REDIS_URL }, stack.env.REDIS_PREFIX);
  try {
    const counts = await Promise.all(Object.values(queues).map((queue) => queue.getJobCounts('active')));
    return counts.reduce((sum, count) => sum + (count.active ?? 0), 0);
  } finally {
    await Promise.all(Object.values(queues).map((queue) => queue.close()));
  }
}

describe('a worker killed with SIGKILL in the middle of a batch', () => {
  it('leaves every image ready in the end, each with exactly one proposal from the analyser, and no job active', async () => {
    const owner = await stack.createUser();
    const doomed = await stack.startWorker({ SLOW_ANALYSIS_MS: '1500', WORKER_CONCURRENCY: '2' }, SLOW_WORKER_ENTRY);
    const { body } = await upload(apiUrl, owner.key, await photos([1001, 1002, 1003, 1004, 1005, 1006]));
    await waitForBatch(
      apiUrl,
      owner.key,
      body.batchId,
      (status) => status.counts.processing >= 1 && status.processed >= 1,
      30_000,
    );
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    const rescuer = await stack.startWorker();
    onTestFinished(() => rescuer.stop().then(() => undefined));
    const done = await waitForBatch(apiUrl, owner.key, body.batchId, (status) => status.status === 'completed', 60_000);
    expect(done.counts).toMatchObject({ ready: 6, processing: 0, queued: 0, failed: 0 });
    // The analyser's proposal (the row with no name before it) exactly once per image, however often its job
    // ran; a second row can only be the batch's naming as a whole, which renumbers proposals once at the end.
    const history = await stack.platform.db.sql<{ image_id: string; proposals: number; others: number }[]>`
      select i.id as image_id,
        count(h.id) filter (where h.source = 'proposal' and h.old_filename is null)::int as proposals,
        count(h.id) filter (where h.source <> 'proposal')::int as others
      from images i left join filename_history h on h.image_id = i.id
      where i.batch_id = ${body.batchId} group by i.id`;
    expect(history).toHaveLength(6);
    for (const image of history) expect(image).toMatchObject({ proposals: 1, others: 0 });
    // The batch reads completed a moment before its own job and the `batch.completed` event's job finish, and the
    // rescuer's schedules run at its start: those settle within seconds, a job the killed worker left does not.
    await expect.poll(activeJobs, { interval: 250, timeout: 15_000 }).toBe(0);
  }, 120_000);
});

describe('a worker stopped with SIGTERM', () => {
  it('finishes or hands back the job it holds within its grace period, takes no new one, and exits 0', async () => {
    const owner = await stack.createUser();
    const stopping = await stack.startWorker({ SLOW_ANALYSIS_MS: '1500', WORKER_CONCURRENCY: '1' }, SLOW_WORKER_ENTRY);
    const { body } = await upload(apiUrl, owner.key, await photos([1011, 1012, 1013, 1014]));
    await waitForBatch(apiUrl, owner.key, body.batchId, (status) => status.counts.processing === 1, 30_000);
    const signalledAt = Date.now();
    stopping.child.kill('SIGTERM');
    const code = await stopping.exited;
    // Its grace: the job lock (2 s here) plus a margin; never the 60 s of a hung process.
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(code).toBe(0);
    const finished = await countOf(
      stack.platform.db
        .sql`select count(*)::int as n from images where batch_id = ${body.batchId} and status = 'ready'`,
    );
    // The job it held at most: no new one after the signal.
    expect(finished).toBeLessThanOrEqual(1);
    expect(await activeJobs()).toBe(0);

    const next = await stack.startWorker();
    onTestFinished(() => next.stop().then(() => undefined));
    const done = await waitForBatch(apiUrl, owner.key, body.batchId, (status) => status.status === 'completed', 60_000);
    expect(done.counts.ready).toBe(4);
  }, 120_000);
});

describe('an API instance killed in the middle of an upload', () => {
  it('fails the client’s request, and leaves no row, no object and no quota counted for what was not stored', async () => {
    const owner = await stack.createUser();
    const port = await freePort();
    const api = spawnService(API_ENTRY, {
      ...stack.env,
      API_PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    await waitForStatus(api, `http://127.0.0.1:${port}/health/ready`, 200, 60_000);

    const [first, second] = await photos([1021, 1022]);
    const boundary = 'renamer-fault-boundary';
    const part = (file: typeof first) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file!.name}"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        file!.bytes,
        Buffer.from('\r\n'),
      ]);
    const body = Buffer.concat([part(first), part(second), Buffer.from(`--${boundary}--\r\n`)]);
    // The first file whole and half of the second, then the API dies before the rest arrives.
    const sent = Math.floor(body.length * 0.75);
    const outcome = new Promise<string>((resolve) => {
      const req = request(`http://127.0.0.1:${port}/api/batch`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
        },
      });
      req.on('response', (response) => resolve(`answered ${response.statusCode}`));
      req.on('error', (error) => resolve(`failed: ${error.message}`));
      req.write(body.subarray(0, sent), () => setTimeout(() => api.child.kill('SIGKILL'), 300));
    });
    expect(await outcome).toMatch(/^failed: /);
    await api.exited;

    const images = await countOf(
      stack.platform.db.sql`select count(*)::int as n from images where user_id = ${owner.user.id}`,
    );
    const batches = await countOf(
      stack.platform.db.sql`select count(*)::int as n from batches where user_id = ${owner.user.id}`,
    );
    expect({ images, batches }).toEqual({ images: 0, batches: 0 });
    expect(await stack.storedKeys(owner.user.id)).toEqual([]);
    const quota = await fetch(`${apiUrl}/api/auth/quota`, { headers: owner.headers });
    expect(await quota.json()).toMatchObject({ used: 0 });
  }, 60_000);
});

/**
 * A TCP relay to PostgreSQL that can be cut: while it is down it refuses new connections and has dropped the
 * open ones, as a database host that went away would.
 */
async function cuttableRelay(target: URL) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      }).listen(port, '127.0.0.1', () => resolve());
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server?.close(() => resolve());
    });
  await up();
  return { port, up, down };
}

describe('PostgreSQL unreachable for a few seconds', () => {
  it('fails requests fast with 503 unavailable, reports not ready, and recovers by itself', async () => {
    const owner = await stack.createUser();
    const database = new URL(stack.env.DATABASE_URL);
    const relay = await cuttableRelay(database);
    const relayed = new URL(database);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const api = spawnService(API_ENTRY, {
      ...stack.env,
      DATABASE_URL: relayed.href,
      API_PORT: String(port),
      PUBLIC_URL: url,
    });
    onTestFinished(async () => {
      await api.stop();
      await relay.down();
    });
    await waitForStatus(api, `${url}/health/ready`, 200, 60_000);
    const me = () => fetch(`${url}/api/auth/me`, { headers: owner.headers });
    expect((await me()).status).toBe(200);

    await relay.down();
    const startedAt = Date.now();
    const refused = await me();
    expect(Date.now() - startedAt).toBeLessThan(6_000);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ code: 'unavailable' });
    expect((await fetch(`${url}/health/ready`)).status).toBe(503);

    await relay.up();
    const deadline = Date.now() + 20_000;
    while ((await me()).status !== 200) {
      if (Date.now() > deadline) throw new Error('the API did not recover');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    expect(api.child.exitCode).toBeNull();
  }, 120_000);
});

/** A redis-server of the test's own, without persistence, as the shared one runs: a restart loses its data. */
async function privateRedis(port: number): Promise<ChildProcess> {
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 10_000;
  while (!(await redisAnswers(port))) {
    if (Date.now() > deadline) throw new Error('the private redis-server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server;
}

function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

describe('Redis restarted during a batch', () => {
  it('reports the outage while it lasts, and the API and workers reconnect by themselves and finish the batch', async () => {
    const owner = await stack.createUser();
    const redisPort = await freePort();
    let redis = await privateRedis(redisPort);
    onTestFinished(() => {
      redis.kill('SIGKILL');
    });
    const env = { ...stack.env, REDIS_URL: `redis://127.0.0.1:${redisPort}` };
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const api = spawnService(API_ENTRY, { ...env, API_PORT: String(port), PUBLIC_URL: url });
    onTestFinished(() => api.stop().then(() => undefined));
    await waitForStatus(api, `${url}/health/ready`, 200, 60_000);
    const worker = await stack.startWorker(
      { REDIS_URL: env.REDIS_URL, SLOW_ANALYSIS_MS: '700', WORKER_CONCURRENCY: '1' },
      SLOW_WORKER_ENTRY,
    );

    const { body } = await upload(url, owner.key, await photos([1031, 1032, 1033, 1034, 1035]));
    const socket = await connectWs(url, owner.headers);
    let closedWith: number | undefined;
    socket.socket.on('close', (code) => {
      closedWith = code;
    });
    socket.send({ type: 'subscribe', batchId: body.batchId });
    await waitForBatch(url, owner.key, body.batchId, (status) => status.processed >= 1, 30_000);

    redis.kill('SIGTERM');
    await new Promise((resolve) => redis.once('exit', resolve));
    const readiness = await fetch(`${url}/health/ready`);
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toMatchObject({ failed: expect.arrayContaining(['redis']) });
    await expect.poll(async () => (await fetch(`${worker.url}/health/ready`)).status, { timeout: 10_000 }).toBe(503);

    redis = await privateRedis(redisPort);
    await expect.poll(async () => (await fetch(`${url}/health/ready`)).status, { timeout: 20_000 }).toBe(200);
    const done = await waitForBatch(url, owner.key, body.batchId, (status) => status.status === 'completed', 90_000);
    expect(done.counts).toMatchObject({ ready: 5, failed: 0 });

    // An open socket either carried on (the batch's completion arrived) or was closed, so that the client
    // reconnects and subscribes again, and then hears the batch as it stands.
    const heardCompletion = socket.messages.some(
      (message) => message.type === 'batch.status' && message.status === 'completed',
    );
    if (!heardCompletion) {
      // 1012: the API's progress feed was interrupted, so it closed the socket for the client to come back.
      expect(closedWith).toBe(1012);
      const again = await connectWs(url, owner.headers);
      again.send({ type: 'subscribe', batchId: body.batchId });
      const messages = await again.waitFor((all) => all.some((message) => message.type === 'subscribed'));
      expect(messages.find((message) => message.type === 'subscribed')).toMatchObject({
        status: { status: 'completed' },
      });
      again.socket.close();
    }
    socket.socket.close();
  }, 180_000);
});
