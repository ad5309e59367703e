/**
 * What both benchmarks share: the services as their own processes on loopback, an isolated database and
 * Redis prefix per run, a streamed multipart upload, /proc readings, and cleanup that also runs on
 * failure, Ctrl-C and the time limit.
 *
 * The bench is not a workspace package, so workspace code is imported by relative path (its own
 * dependencies resolve from there) and third-party packages the root does not list through the app that
 * depends on them.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { type ClientRequest, request } from 'node:http';
import { createRequire } from 'node:module';
import { constants, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import closeWithGrace from 'close-with-grace';
import { generateApiKey } from '../packages/auth/src/index';
import { createDb, createRepositories } from '../packages/db/src/index';
import { emailHash } from '../packages/domain/src/index';
import { freePort } from '../packages/runtime/src/testing/free-port';
import { createIsolatedDatabase } from '../packages/runtime/src/testing/isolated-database';
import {
  type SpawnedService,
  type SpawnOptions,
  spawnService,
  waitForStatus,
} from '../packages/runtime/src/testing/spawn-service';
import { deleteRedisKeys } from '../packages/runtime/src/testing/test-env';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const API_ENTRY = join(ROOT, 'apps/api/src/server.ts');
export const WORKER_ENTRY = join(ROOT, 'apps/worker/src/server.ts');

// spawnService runs `node --import tsx …`, which resolves tsx from the working directory.
process.chdir(ROOT);

// sharp and ws as the API has them (the root workspace does not depend on them).
const requireFromApi = createRequire(join(ROOT, 'apps/api/package.json'));
type SharpPipeline = {
  jpeg(options: Record<string, unknown>): SharpPipeline;
  raw(): SharpPipeline;
  toBuffer(): Promise<Buffer>;
};
type SharpFactory = ((
  input: Buffer | string,
  options?: { raw: { width: number; height: number; channels: 3 } },
) => SharpPipeline) & { concurrency(): number };
export const sharp = requireFromApi('sharp') as SharpFactory;
export const ws = requireFromApi('ws') as typeof import('../apps/api/node_modules/@types/ws');

export const MB = 1_000_000;
export const log = (line = '') => process.stdout.write(`${line}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function argValue(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

/**
 * Last in, first out; each step runs once, whatever happened before it. A step added while or after the
 * cleanup runs (the benchmark carries on while an abort cleans up) is run too.
 */
export class Cleanup {
  private steps: { label: string; run: () => unknown }[] = [];
  private running: Promise<void> | undefined;
  private done = false;

  add(label: string, run: () => unknown): void {
    this.steps.push({ label, run });
    if (this.done) {
      this.done = false;
      this.running = undefined;
      void this.run();
    }
  }

  /** A cleanup of its own (one run, say) that also runs when this one does. */
  child(label: string): Cleanup {
    const child = new Cleanup();
    this.add(label, () => child.run());
    return child;
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      for (let step = this.steps.pop(); step; step = this.steps.pop()) {
        try {
          await step.run();
        } catch (error) {
          console.error(`cleanup "${step.label}" failed:`, error);
        }
      }
      this.done = true;
    })();
    return this.running;
  }
}

/** Uploads being sent, so an abort can end them at once. */
const uploadsInFlight = new Set<ClientRequest>();

/** Every service this process started; any still running when it exits gets SIGTERM. */
const started = new Set<SpawnedService>();
process.on('exit', () => {
  for (const service of started) if (service.child.exitCode === null) service.child.kill('SIGTERM');
});

/**
 * Runs `main` with a hard time limit; the cleanup runs on success, failure, the limit, a signal and an
 * uncaught error (close-with-grace), then the process exits: 0, 1 failed, 2 time limit, 128 + a signal's number.
 */
export async function runBench(name: string, limitMinutes: number, main: (cleanup: Cleanup) => Promise<void>) {
  const cleanup = new Cleanup();
  let ending: { why: string; code: number } | undefined;
  const graceful = closeWithGrace({ delay: false }, async ({ signal, err }) => {
    if (signal) ending = { why: `stopped by ${signal}`, code: 128 + constants.signals[signal] };
    else if (err) ending = { why: `crashed: ${err.stack}`, code: 1 };
    if (ending) console.error(`\n${name}: ${ending.why}; cleaning up`);
    // An upload in flight would hold the API's graceful close until it ends.
    for (const upload of uploadsInFlight) upload.destroy();
    await cleanup.run();
    // What the benchmark started while the cleanup ran is cleaned up by a second pass.
    await sleep(500);
    await cleanup.run();
    process.exit(ending?.code ?? 0);
  });
  const timer = setTimeout(() => {
    ending = { why: `time limit of ${limitMinutes} min reached`, code: 2 };
    graceful.close();
  }, limitMinutes * 60_000);
  try {
    await main(cleanup);
  } catch (error) {
    // An ending already under way makes the benchmark fail: that failure is beside the point.
    if (ending) return;
    console.error(error);
    ending = { why: 'failed', code: 1 };
  }
  clearTimeout(timer);
  graceful.close();
}

/** The commit measured, and how many files outside bench/ and docs/ differ from it (work in progress). */
function codeVersion(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--', '.', ':!bench', ':!docs').split('\n').filter(Boolean).length;
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ` + ${dirty} changed file(s)` : ''}`;
  } catch {
    return 'unknown';
  }
}

export function machine() {
  return {
    code: codeVersion(),
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: (totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    kernel: readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim(),
    loadAverage: loadavg()
      .map((value) => value.toFixed(2))
      .join(' '),
  };
}

export function tempDir(cleanup: Cleanup, label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `renamer-bench-${label}-`));
  cleanup.add(`rm ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface Environment {
  env: Record<string, string>;
  redisPrefix: string;
}

/**
 * An isolated, migrated database, a unique Redis prefix and directories of its own; all of it is removed
 * by `cleanup` (the Redis keys after the services that write them have stopped, since cleanup runs last
 * in, first out and the services are added later).
 */
export async function isolatedEnvironment(cleanup: Cleanup, name: string): Promise<Environment> {
  const dir = tempDir(cleanup, name);
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisPrefix = `renamer-bench:${name}-${randomUUID().slice(0, 8)}:`;
  cleanup.add(`redis keys ${redisPrefix}*`, () => deleteRedisKeys(redisUrl, redisPrefix));
  const database = await createIsolatedDatabase(
    process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  cleanup.add('drop database', () => database.drop());
  for (const sub of ['objects', 'spool', 'work']) mkdirSync(join(dir, sub));
  return {
    redisPrefix,
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: redisPrefix,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      // Never contacted: uploads authenticate with an API key.
      OIDC_ISSUER: 'http://127.0.0.1:9',
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: join(dir, 'objects'),
      UPLOAD_TMP_DIR: join(dir, 'spool'),
      WORK_DIR: join(dir, 'work'),
      // The benchmarks poll and upload far faster than a person; the limiter is not what they measure.
      RATE_LIMIT_PER_MINUTE: '1000000',
      // No web app: the API benchmarks measure the API (bench/web.ts serves the built one).
      WEB_DIST_DIR: '',
    },
  };
}

export interface Service {
  name: string;
  url: string;
  pid: number;
  process: SpawnedService;
}

/** Where a service's output goes instead of this process, and options for node (spawnService's). */
export type OwnOutput = SpawnOptions & { logFile: string };

/**
 * Starts an entrypoint as its own process (on `env[portVariable]`, else a free port) and waits until
 * /health/ready answers 200. With `ownOutput` its
 * output goes to a file instead of this process.
 */
export async function startService(
  cleanup: Cleanup,
  name: string,
  entry: string,
  portVariable: string,
  env: Record<string, string>,
  ownOutput?: OwnOutput,
): Promise<Service> {
  // A port chosen ahead (another service had to know it) is kept.
  const port = env[portVariable] ? Number(env[portVariable]) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const serviceEnv = { ...env, [portVariable]: String(port), PUBLIC_URL: env.PUBLIC_URL ?? url };
  const spawned = spawnService(entry, serviceEnv, ownOutput);
  started.add(spawned);
  cleanup.add(`stop ${name} (pid ${spawned.child.pid})`, async () => {
    const timer = setTimeout(() => spawned.child.kill('SIGKILL'), 15_000);
    await spawned.stop();
    clearTimeout(timer);
  });
  await waitForStatus(spawned, `${url}/health/ready`, 200, 60_000);
  return { name, url, pid: spawned.child.pid!, process: spawned };
}

/** A user with a quota that no benchmark reaches and an API key, made directly in the database. */
export async function createUser(databaseUrl: string, quota = 1_000_000) {
  const client = createDb(databaseUrl, { max: 1 });
  try {
    const repositories = createRepositories(client.db);
    const id = randomUUID();
    const user = await repositories.users.create({
      provider: 'https://bench.invalid',
      providerSubject: id,
      displayName: `Bench ${id.slice(0, 6)}`,
      emailHash: emailHash(`${id}@bench.invalid`),
      quota,
    });
    const { key, prefix, hash } = generateApiKey();
    await repositories.apiKeys.create({ userId: user.id, name: 'bench', prefix, keyHash: hash });
    return { userId: user.id, key };
  } finally {
    await client.close();
  }
}

export interface ImageFile {
  path: string;
  name: string;
  size: number;
}

/** Encodes `raw` RGB pixels as a JPEG file. */
export async function writeJpeg(
  path: string,
  raw: Buffer,
  width: number,
  height: number,
  quality: number,
): Promise<ImageFile> {
  const bytes = await sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
  writeFileSync(path, bytes);
  return { path, name: path.split('/').at(-1)!, size: bytes.length };
}

/** Runs `task` over `items` with at most `limit` at once. */
export async function mapLimit<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!, index);
      }
    }),
  );
  return results;
}

export interface UploadTiming {
  status: number;
  body: Record<string, unknown>;
  bytes: number;
  /** From the first byte sent to the whole response read. */
  totalMs: number;
  /** From the first byte sent to the last byte of the body handed to the socket. */
  sendMs: number;
  /**
   * From the last body byte handed to the kernel to the response headers: the server's work on what was
   * still in socket buffers (the last file's checks), then storing the objects, the commit and the queueing.
   */
  tailMs: number;
  /** Largest growth of this (client) process's RSS during the upload over its RSS at the start. */
  clientRssGrowth: number;
}

/**
 * `POST /api/batch` with a multipart body streamed from the files on disk (exact Content-Length, no
 * chunked encoding), so the client holds a few chunks, never the request.
 */
export async function uploadFiles(
  apiUrl: string,
  key: string,
  files: ImageFile[],
  fields: Record<string, string> = {},
): Promise<UploadTiming> {
  const boundary = `----renamer-bench-${randomUUID()}`;
  const fieldParts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const heads = files.map((file) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
  );
  const crlf = Buffer.from('\r\n');
  const closing = Buffer.from(`--${boundary}--\r\n`);
  const sizes = files.map((file) => statSync(file.path).size);
  const length =
    fieldParts.reduce((sum, part) => sum + part.length, 0) +
    heads.reduce((sum, head, index) => sum + head.length + sizes[index]! + crlf.length, 0) +
    closing.length;

  async function* body() {
    yield* fieldParts;
    for (const [index, file] of files.entries()) {
      yield heads[index]!;
      yield* createReadStream(file.path, { highWaterMark: 256 * 1024 });
      yield crlf;
    }
    yield closing;
  }

  const clientRssAtStart = process.memoryUsage.rss();
  let clientPeakRss = clientRssAtStart;
  const rssTimer = setInterval(() => {
    clientPeakRss = Math.max(clientPeakRss, process.memoryUsage.rss());
  }, 50);
  const url = new URL('/api/batch', apiUrl);
  const started = performance.now();
  let sentAt = Number.NaN;
  try {
    return await new Promise<UploadTiming>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(length),
        },
      });
      uploadsInFlight.add(req);
      req.once('close', () => uploadsInFlight.delete(req));
      req.once('finish', () => {
        sentAt = performance.now();
      });
      req.once('error', reject);
      req.once('response', (res) => {
        const headersAt = performance.now();
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', reject);
        res.once('end', () => {
          const done = performance.now();
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = { raw: text.slice(0, 500) };
          }
          resolve({
            status: res.statusCode ?? 0,
            body: parsed,
            bytes: length,
            totalMs: done - started,
            sendMs: (Number.isNaN(sentAt) ? headersAt : sentAt) - started,
            tailMs: Number.isNaN(sentAt) ? 0 : headersAt - sentAt,
            clientRssGrowth: clientPeakRss - clientRssAtStart,
          });
        });
      });
      // An early answer (a refusal) ends the request; the pipeline's error is then beside the point.
      pipeline(Readable.from(body(), { objectMode: false }), req).catch(() => undefined);
    });
  } finally {
    clearInterval(rssTimer);
  }
}

export async function getJson(url: string, key: string) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Fields of /proc/<pid>/status in bytes (VmRSS, VmHWM …). */
export function procStatus(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const match = /^(Vm\w+|Rss\w+):\s+(\d+) kB/.exec(line);
    if (match) out[match[1]!] = Number(match[2]) * 1024;
  }
  return out;
}

/** User plus system CPU time of a process so far, in seconds. */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** User + system CPU seconds from the text of a /proc/<pid>/stat. */
function statCpuSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime), counted from after the command name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds of every process with this command name, by pid (PostgreSQL's backends, Redis). */
export function cpuSecondsByName(name: string): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === name)
        found.set(Number(entry), statCpuSeconds(stat));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return found;
}

/** CPU seconds these processes used between two `cpuSecondsByName` readings (a new process counts whole). */
export function cpuSecondsSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** Busy and total jiffies of the whole machine, for "how busy were the cores". */
export function machineCpu(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const numbers = values.map(Number);
  const idle = (numbers[3] ?? 0) + (numbers[4] ?? 0);
  const total = numbers.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/**
 * Samples a process's VmRSS every `intervalMs`, and resets its kernel high-water mark (VmHWM) at the start
 * so the peak covers exactly the sampled window, spikes between samples included.
 */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  private maxSampled = 0;
  private started = 0;
  samples = 0;
  hwmReset = false;
  /** The largest sample of each whole second since `start`, when asked for. */
  perSecond: number[] = [];

  constructor(private readonly pid: number) {}

  start(intervalMs = 20): void {
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
      this.hwmReset = true;
    } catch {
      this.hwmReset = false;
    }
    this.maxSampled = procStatus(this.pid).VmRSS ?? 0;
    this.samples = 1;
    this.started = performance.now();
    this.perSecond = [this.maxSampled];
    this.timer = setInterval(() => {
      let rss: number;
      try {
        rss = procStatus(this.pid).VmRSS ?? 0;
      } catch {
        // The process is gone (stopped by an abort, or crashed): the caller finds out on its own.
        clearInterval(this.timer);
        return;
      }
      this.samples += 1;
      if (rss > this.maxSampled) this.maxSampled = rss;
      const second = Math.floor((performance.now() - this.started) / 1000);
      this.perSecond[second] = Math.max(this.perSecond[second] ?? 0, rss);
    }, intervalMs);
  }

  stop(): { peakSampled: number; peakHwm: number | null; peak: number; samples: number } {
    clearInterval(this.timer);
    const status = procStatus(this.pid);
    const sampled = Math.max(this.maxSampled, status.VmRSS ?? 0);
    const hwm = this.hwmReset ? (status.VmHWM ?? null) : null;
    return { peakSampled: sampled, peakHwm: hwm, peak: Math.max(sampled, hwm ?? 0), samples: this.samples };
  }
}

/** One value of a Prometheus text exposition (the sum over every series whose line starts with `name`). */
export async function scrapeMetric(url: string, name: string, labelFilter = ''): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    if (labelFilter && !rest.includes(labelFilter)) continue;
    sum += Number(line.split(' ').at(-1));
  }
  return sum;
}

export const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
export const fmt = (value: number, digits = 1) => value.toFixed(digits);

/** A plain-text table with aligned columns. */
export function table(header: string[], rows: (string | number)[][]): string {
  const all = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, col) => Math.max(...all.map((row) => (row[col] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((cell, col) => cell.padEnd(widths[col]!)).join(' | ')} |`;
  return [line(all[0]!), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...all.slice(1).map(line)].join('\n');
}

/**
 * Adds a row to the table of the `## <heading>` section of docs/benchmarks.md, after its last row, so that
 * every run leaves its figures beside the earlier ones.
 */
export function appendBenchmarkRow(heading: string, cells: string[]): void {
  const path = join(ROOT, 'docs/benchmarks.md');
  const lines = readFileSync(path, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith(`## ${heading}`));
  if (start < 0) throw new Error(`docs/benchmarks.md has no "## ${heading}" section`);
  const next = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const end = next < 0 ? lines.length : next;
  const last = lines.slice(start, end).findLastIndex((line) => line.startsWith('|'));
  if (last < 0) throw new Error(`the "## ${heading}" section of docs/benchmarks.md has no table`);
  lines.splice(start + last + 1, 0, `| ${cells.join(' | ')} |`);
  writeFileSync(path, lines.join('\n'));
}
