/**
 * The authenticated read under load: `GET /api/batch/:id/status` with an API key, from autocannon, against the
 * API as its own process, beside two baselines in their own processes (a bare Fastify route, and one doing one
 * Redis INCR and one prepared PostgreSQL round trip). Prints req/s, p99 latency and the server's CPU per
 * request of each, the ratios, and appends one dated row per API mode to docs/benchmarks.md.
 *
 *   npm run bench -- http [--duration=10] [--connections=50] [--modes=production,development] [--images=20]
 *                         [--runs=2] [--cpu-prof=DIR]
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createDb, createRepositories } from '../packages/db/src/index';
import {
  API_ENTRY,
  appendBenchmarkRow,
  argValue,
  type Cleanup,
  cpuSeconds,
  cpuSecondsByName,
  cpuSecondsSince,
  createUser,
  fmt,
  isolatedEnvironment,
  log,
  machine,
  ROOT,
  runBench,
  type Service,
  startService,
  table,
  tempDir,
} from './support';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(join(ROOT, 'package.json'))('autocannon') as Autocannon;

const duration = Number(argValue('duration', '10'));
const connections = Number(argValue('connections', '50'));
const modes = argValue('modes', 'production,development').split(',');
const imageCount = Number(argValue('images', '20'));
const runs = Number(argValue('runs', '1'));
/** Where the API processes write a V8 CPU profile each (`node --cpu-prof`), when given. */
const profileDir = argValue('cpu-prof', '');
const WARM_UP_SECONDS = 2;
const RESULTS_HEADING = 'Authenticated read under load';

interface Measurement {
  label: string;
  reqPerSecond: number;
  p99Ms: number;
  cpuMsPerRequest: number;
  /** What the rest of the machine spent per request: PostgreSQL's and Redis's processes, and autocannon. */
  postgresMsPerRequest: number;
  redisMsPerRequest: number;
  clientMsPerRequest: number;
}

/** Warms the server up, then loads `url` for `duration` seconds and reads the server's CPU time around it. */
async function measure(label: string, service: Service, url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections, duration: WARM_UP_SECONDS, headers });
  const cpuBefore = cpuSeconds(service.pid);
  const postgresBefore = cpuSecondsByName('postgres');
  const redisBefore = cpuSecondsByName('redis-server');
  const clientBefore = process.cpuUsage();
  const result = await autocannon({ url, connections, duration, headers });
  const cpu = cpuSeconds(service.pid) - cpuBefore;
  const client = process.cpuUsage(clientBefore);
  const postgres = cpuSecondsSince(postgresBefore, cpuSecondsByName('postgres'));
  const redis = cpuSecondsSince(redisBefore, cpuSecondsByName('redis-server'));
  const perRequest = (seconds: number) => (seconds * 1000) / result.requests.total;
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${label}: ${failed} of ${result.requests.total} requests failed`);
  return {
    label,
    reqPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    cpuMsPerRequest: perRequest(cpu),
    postgresMsPerRequest: perRequest(postgres),
    redisMsPerRequest: perRequest(redis),
    clientMsPerRequest: perRequest((client.user + client.system) / 1e6),
  } satisfies Measurement;
}

/** A batch of the user's with `imageCount` queued images, made directly in the database. */
async function createBatch(databaseUrl: string, userId: string): Promise<string> {
  const client = createDb(databaseUrl, { max: 1 });
  try {
    const repositories = createRepositories(client.db);
    const batch = await repositories.batches.create({ userId, name: 'bench', total: imageCount });
    await repositories.images.insertMany(
      Array.from({ length: imageCount }, (_, index) => ({
        batchId: batch.id,
        userId,
        originalFilename: `photo-${index}.jpg`,
        checksum: randomBytes(32).toString('hex'),
        size: 1000,
        mimeType: 'image/jpeg',
        storageKey: `bench/${batch.id}/${index}`,
      })),
    );
    return batch.id;
  } finally {
    await client.close();
  }
}

async function main(cleanup: Cleanup) {
  const host = machine();
  log(`http: ${connections} connections, ${duration} s each (after ${WARM_UP_SECONDS} s of warm-up)`);
  log(`code ${host.code}; ${host.cpus} × ${host.cpuModel}; Node ${host.node}; load ${host.loadAverage}`);

  const { env, redisPrefix } = await isolatedEnvironment(cleanup, 'http');
  const logs = tempDir(cleanup, 'http-logs');
  const { userId, key } = await createUser(env.DATABASE_URL!);
  const batchId = await createBatch(env.DATABASE_URL!, userId);
  const baselineEnv = { DATABASE_URL: env.DATABASE_URL!, REDIS_URL: env.REDIS_URL!, REDIS_PREFIX: redisPrefix };

  const bare = await startService(cleanup, 'bare', join(ROOT, 'bench/http-baseline.ts'), 'PORT', {
    BASELINE: 'bare',
  });
  const io = await startService(cleanup, 'io', join(ROOT, 'bench/http-baseline.ts'), 'PORT', {
    ...baselineEnv,
    BASELINE: 'io',
    BATCH_ID: batchId,
  });
  const apis = [];
  for (const mode of modes) {
    // Development as `npm start` runs it, quiet; production at its default level, one line per request.
    const logLevel = mode === 'development' ? 'warn' : 'info';
    const api = await startService(
      cleanup,
      `api-${mode}`,
      API_ENTRY,
      'API_PORT',
      { ...env, NODE_ENV: mode, LOG_LEVEL: logLevel },
      {
        logFile: join(logs, `api-${mode}.log`),
        nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      },
    );
    apis.push({ api, mode, logLevel });
  }

  // Each run measures the baselines and then the API again, one after the other, so that a ratio compares
  // what was measured minutes apart, not a baseline from the start with an API from the end.
  const ratios = new Map<string, number[]>();
  for (let run = 1; run <= runs; run += 1) {
    const bareResult = await measure('bare route, no I/O', bare, `${bare.url}/read`);
    const ioResult = await measure('INCR + prepared SELECT', io, `${io.url}/read`);
    const apiResults: (Measurement & { mode: string; logLevel: string })[] = [];
    for (const { api, mode, logLevel } of apis) {
      const result = await measure(`API, ${mode}`, api, `${api.url}/api/batch/${batchId}/status`, {
        authorization: `Bearer ${key}`,
      });
      apiResults.push({ ...result, mode, logLevel });
      ratios.set(mode, [...(ratios.get(mode) ?? []), result.reqPerSecond / ioResult.reqPerSecond]);
    }
    report(run, bareResult, ioResult, apiResults);
  }
  for (const [mode, values] of ratios) {
    const sorted = [...values].sort((a, b) => a - b);
    log(
      `API, ${mode}: req/s ÷ INCR+SELECT over ${runs} run(s): median ${fmt(sorted[Math.floor(sorted.length / 2)]!, 3)}, ${sorted.map((v) => fmt(v, 3)).join(', ')}`,
    );
  }
}

/** Prints one run's table and appends one dated row per API mode to docs/benchmarks.md. */
function report(
  run: number,
  bareResult: Measurement,
  ioResult: Measurement,
  apiResults: (Measurement & { mode: string; logLevel: string })[],
) {
  const host = machine();
  const all = [bareResult, ioResult, ...apiResults];
  log(`\nrun ${run}`);
  log(
    table(
      [
        'server',
        'req/s',
        'p99 ms',
        'CPU ms/req',
        'PostgreSQL, Redis, autocannon ms/req',
        'req/s ÷ INCR+SELECT',
        'req/s ÷ bare',
      ],
      all.map((m) => [
        m.label,
        fmt(m.reqPerSecond, 0),
        fmt(m.p99Ms, 1),
        fmt(m.cpuMsPerRequest, 3),
        [m.postgresMsPerRequest, m.redisMsPerRequest, m.clientMsPerRequest].map((ms) => fmt(ms, 3)).join(', '),
        fmt(m.reqPerSecond / ioResult.reqPerSecond, 3),
        fmt(m.reqPerSecond / bareResult.reqPerSecond, 3),
      ]),
    ),
  );

  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  for (const m of apiResults) {
    appendBenchmarkRow(RESULTS_HEADING, [
      `${date} UTC`,
      host.code,
      `${host.cpus}`,
      `${m.mode}, ${m.logLevel}`,
      `${connections} × ${duration} s`,
      `${fmt(m.reqPerSecond, 0)} req/s, p99 ${fmt(m.p99Ms, 0)} ms, ${fmt(m.cpuMsPerRequest, 3)} ms CPU`,
      `${fmt(ioResult.reqPerSecond, 0)} req/s, p99 ${fmt(ioResult.p99Ms, 0)} ms, ${fmt(ioResult.cpuMsPerRequest, 3)} ms CPU`,
      `${fmt(bareResult.reqPerSecond, 0)} req/s, p99 ${fmt(bareResult.p99Ms, 0)} ms`,
      fmt(m.reqPerSecond / ioResult.reqPerSecond, 3),
      fmt(m.reqPerSecond / bareResult.reqPerSecond, 3),
      host.loadAverage,
    ]);
  }
  log(`appended ${apiResults.length} row(s) to docs/benchmarks.md`);
}

await runBench('http', Number(argValue('limit-min', '10')), main);
