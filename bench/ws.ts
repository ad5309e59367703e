/**
 * The WebSocket fan-out of one batch's events to many sockets in its room. The API runs as its own process;
 * the bench opens N sockets with one user's API key, subscribes each to one batch, then publishes that
 * batch's events on the progress channel as the worker does (for each image an `image.status`, then a
 * `batch.status`, one image every --gap-ms). Each client records the delay from an event's `at` to its
 * arrival. The baseline, in the same run and with the same N and timing, is a bare `ws` server in a process
 * of its own (bench/ws-bare-server.ts) that forwards every published event to every socket.
 *
 *   node_modules/.bin/tsx bench/ws.ts [--sockets=500,1000] [--images=200] [--gap-ms=20] [--status-interval-ms=100]
 *                                     [--mode=production|development] [--profile=FILE] [--no-record]
 *                                     [--limit-min=20]
 *
 * It prints, per N, the server's CPU per delivered event (from /proc/<pid>/stat) and the delay p50/p99 for
 * both servers and their ratios, and the API's RSS and V8 heap once every socket has closed (after a forced
 * GC: the API is started with --expose-gc and bench/ws-api-preload.mjs), then appends a dated row per N to
 * docs/benchmarks.md ("WebSocket fan-out"). --profile=FILE writes a CPU profile of the API there (.cpuprofile). The clients
 * share the machine's cores with both servers: the delays are only comparable on a quiet machine.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import type { ProgressEvent } from '../packages/contracts/src/index';
import { createDb, createRepositories } from '../packages/db/src/index';
import { createProgressPublisher } from '../packages/progress/src/progress-channel';
import {
  API_ENTRY,
  appendBenchmarkRow,
  argValue,
  type Cleanup,
  cpuSeconds,
  createUser,
  type Environment,
  fmt,
  isolatedEnvironment,
  log,
  machine,
  mapLimit,
  mib,
  procStatus,
  ROOT,
  runBench,
  type Service,
  scrapeMetric,
  sleep,
  startService,
  table,
  ws,
} from './support';

const { WebSocket } = ws;
type Socket = InstanceType<typeof WebSocket>;

const BARE_ENTRY = join(ROOT, 'bench/ws-bare-server.ts');
const PRELOAD = pathToFileURL(join(ROOT, 'bench/ws-api-preload.mjs')).href;
/** Sockets opened at once; more only makes the upgrade requests queue. */
const OPEN_CONCURRENCY = 50;

interface Options {
  images: number;
  gapMs: number;
}

interface Delivery {
  /** Events the clients received, all sockets together. */
  delivered: number;
  cpuSeconds: number;
  p50: number;
  p99: number;
}

/** The clients of one measurement: every delay they saw, and whether each has the batch's last status. */
function createClients(images: number) {
  const delays: number[] = [];
  let finished = 0;
  return {
    delays,
    get finished() {
      return finished;
    },
    listen(socket: Socket) {
      let done = false;
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { type: string; at?: string; processed?: number };
        if (message.type !== 'image.status' && message.type !== 'batch.status') return;
        delays.push(Date.now() - Date.parse(message.at!));
        if (!done && message.type === 'batch.status' && message.processed === images) {
          done = true;
          finished += 1;
        }
      });
    },
  };
}

function open(url: string, headers: Record<string, string> = {}): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

async function closeAll(sockets: Socket[]) {
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          socket.once('close', () => resolve());
          socket.close();
        }),
    ),
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** Publishes the batch's events as the worker would, then waits until every client has the last status. */
async function publishAndMeasure(
  redis: Redis,
  redisPrefix: string,
  batchId: string,
  pid: number,
  clients: ReturnType<typeof createClients>,
  sockets: number,
  { images, gapMs }: Options,
): Promise<Delivery> {
  const publish = createProgressPublisher(redis, redisPrefix);
  const cpuBefore = cpuSeconds(pid);
  for (let image = 1; image <= images; image++) {
    const at = new Date().toISOString();
    const events: ProgressEvent[] = [
      {
        type: 'image.status',
        batchId,
        imageId: randomUUID(),
        status: 'ready',
        proposedFilename: `image-${image}.jpg`,
        at,
      },
      {
        type: 'batch.status',
        batchId,
        status: image === images ? 'completed' : 'processing',
        processed: image,
        total: images,
        progress: image / images,
        at,
      },
    ];
    for (const event of events) await publish(event);
    await sleep(gapMs);
  }
  const deadline = Date.now() + 60_000;
  while (clients.finished < sockets) {
    if (Date.now() > deadline) throw new Error(`only ${clients.finished} of ${sockets} clients got the last status`);
    await sleep(20);
  }
  const cpu = cpuSeconds(pid) - cpuBefore;
  const sorted = [...clients.delays].sort((a, b) => a - b);
  return { delivered: sorted.length, cpuSeconds: cpu, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

/** A full GC in the API, then its RSS and V8 heap in use. */
async function memoryAfterGc(api: Service) {
  process.kill(api.pid, 'SIGWINCH');
  await sleep(1_000);
  return { rss: procStatus(api.pid).VmRSS ?? 0, heap: await scrapeMetric(api.url, 'nodejs_heap_size_used_bytes') };
}

async function measureApi(env: Environment, api: Service, sockets: number, options: Options) {
  const databaseUrl = env.env.DATABASE_URL!;
  const { userId, key } = await createUser(databaseUrl);
  const db = createDb(databaseUrl, { max: 1 });
  const batch = await createRepositories(db.db)
    .batches.create({ userId, total: options.images, status: 'processing' })
    .finally(() => db.close());

  const idle = await memoryAfterGc(api);
  const clients = createClients(options.images);
  const url = `${api.url.replace('http', 'ws')}/api/ws`;
  const open_ = await mapLimit(Array.from({ length: sockets }), OPEN_CONCURRENCY, async () => {
    const socket = await open(url, { authorization: `Bearer ${key}` });
    await new Promise<void>((resolve) => {
      socket.once('message', () => resolve());
      socket.send(JSON.stringify({ type: 'subscribe', batchId: batch.id }));
    });
    clients.listen(socket);
    return socket;
  });
  const rssOpen = procStatus(api.pid).VmRSS ?? 0;

  const redis = new Redis(env.env.REDIS_URL!);
  const delivery = await publishAndMeasure(
    redis,
    env.redisPrefix,
    batch.id,
    api.pid,
    clients,
    sockets,
    options,
  ).finally(() => redis.disconnect());

  await closeAll(open_);
  while ((await scrapeMetric(api.url, 'ws_connections')) > 0) await sleep(100);
  const closed = await memoryAfterGc(api);
  return { delivery, idle, rssOpen, closed };
}

async function measureBare(cleanup: Cleanup, env: Environment, sockets: number, options: Options) {
  const redisPrefix = `${env.redisPrefix}bare:`;
  const bare = await startService(cleanup.child('bare ws server'), 'bare ws server', BARE_ENTRY, 'PORT', {
    REDIS_URL: env.env.REDIS_URL!,
    REDIS_PREFIX: redisPrefix,
  });
  const clients = createClients(options.images);
  const open_ = await mapLimit(Array.from({ length: sockets }), OPEN_CONCURRENCY, async () => {
    const socket = await open(bare.url.replace('http', 'ws'));
    clients.listen(socket);
    return socket;
  });
  const redis = new Redis(env.env.REDIS_URL!);
  const batchId = randomUUID();
  try {
    return await publishAndMeasure(redis, redisPrefix, batchId, bare.pid, clients, sockets, options);
  } finally {
    redis.disconnect();
    await closeAll(open_);
    await bare.process.stop();
  }
}

const perEvent = (d: Delivery) => (d.cpuSeconds * 1e6) / d.delivered;

await runBench('ws', Number(argValue('limit-min', '20')), async (cleanup) => {
  const sizes = argValue('sockets', '500,1000').split(',').map(Number);
  const options: Options = { images: Number(argValue('images', '200')), gapMs: Number(argValue('gap-ms', '20')) };
  const mode = argValue('mode', 'production');
  // 0 sends nearly every batch.status, as the bare server does: the cost of a delivered frame, like for like.
  const statusIntervalMs = argValue('status-interval-ms', '100');
  const profilePath = argValue('profile', '');
  const record = !process.argv.includes('--no-record');

  const env = await isolatedEnvironment(cleanup, 'ws');
  const api = await startService(cleanup, 'api', API_ENTRY, 'API_PORT', {
    ...env.env,
    NODE_ENV: mode,
    LOG_LEVEL: 'warn',
    WS_MAX_SOCKETS_PER_USER: String(Math.max(...sizes) * 2),
    WS_STATUS_INTERVAL_MS: statusIntervalMs,
    NODE_OPTIONS: `--expose-gc --import=${PRELOAD}`,
    ...(profilePath ? { BENCH_CPU_PROFILE: profilePath } : {}),
  });

  const m = machine();
  log(
    `code ${m.code}, ${m.cpus} × ${m.cpuModel}, node ${m.node}, load ${m.loadAverage}, mode ${mode}, WS_STATUS_INTERVAL_MS=${statusIntervalMs}`,
  );
  log(`${options.images} images, one every ${options.gapMs} ms: an image.status and a batch.status each\n`);
  const rows: (string | number)[][] = [];
  for (const sockets of sizes) {
    const measured = await measureApi(env, api, sockets, options);
    const bare = await measureBare(cleanup, env, sockets, options);
    const { delivery } = measured;
    const cpuRatio = perEvent(delivery) / perEvent(bare);
    const p99Ratio = delivery.p99 / Math.max(1, bare.p99);
    rows.push([
      sockets,
      `${delivery.delivered} / ${bare.delivered}`,
      `${fmt(delivery.cpuSeconds, 2)} / ${fmt(bare.cpuSeconds, 2)}`,
      `${fmt(perEvent(delivery))} / ${fmt(perEvent(bare))}`,
      fmt(cpuRatio, 2),
      `${delivery.p50} / ${delivery.p99} ms`,
      `${bare.p50} / ${bare.p99} ms`,
      fmt(p99Ratio, 2),
      `${mib(measured.idle.rss)} → ${mib(measured.rssOpen)} → ${mib(measured.closed.rss)}`,
      `${mib(measured.idle.heap)} → ${mib(measured.closed.heap)}`,
    ]);
    if (record) {
      appendBenchmarkRow('WebSocket fan-out', [
        new Date().toISOString().slice(0, 10),
        m.code,
        `${m.cpus}`,
        statusIntervalMs === '100' ? mode : `${mode}, status every ${statusIntervalMs} ms`,
        `${sockets}`,
        `${options.images} × 2, ${options.gapMs} ms`,
        `${delivery.delivered} / ${bare.delivered}`,
        `${fmt(delivery.cpuSeconds, 2)} / ${fmt(bare.cpuSeconds, 2)} s`,
        `${fmt(perEvent(delivery))} µs`,
        `${fmt(perEvent(bare))} µs`,
        fmt(cpuRatio, 2),
        `${delivery.p50} / ${delivery.p99} ms`,
        `${bare.p50} / ${bare.p99} ms`,
        fmt(p99Ratio, 2),
        `${mib(measured.idle.rss)} / ${mib(measured.closed.rss)} MiB`,
        `${mib(measured.idle.heap)} / ${mib(measured.closed.heap)} MiB`,
      ]);
    }
  }
  log(
    table(
      [
        'sockets',
        'events delivered (API / bare)',
        'CPU s (API / bare)',
        'CPU µs per event (API / bare)',
        'CPU ratio',
        'API delay p50 / p99',
        'bare delay p50 / p99',
        'p99 ratio',
        'API RSS MiB: idle → open → closed',
        'API heap MiB: idle → closed',
      ],
      rows,
    ),
  );
  log(`\nload average at end: ${machine().loadAverage}`);
});
