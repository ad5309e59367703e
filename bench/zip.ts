/**
 * ZIP download: a batch of 10 and one of 1,000 images, each streamed as a ZIP from the API (its own process,
 * `fs` driver) to a client that throws the bytes away, against a baseline in the same run: this process reading
 * the same objects from the same store, one after another. Prints the throughput of both and their ratio, the
 * time to the archive's first byte, and the API's RSS before and at its peak during each archive; appends one
 * dated row per batch size to docs/benchmarks.md ("ZIP download").
 *
 *   npm run bench -- zip [--runs=2] [--images=1000] [--side=640]
 *   node_modules/.bin/tsx bench/zip.ts [--runs=2] [--images=1000] [--side=640]
 *
 * --images is the large batch's size (the small one holds 10); --side the images' width and height in pixels
 * (noise at quality 80: about 260 kB at 640).
 *
 * Web-ready copies (`--web`): one batch of --images camera-sized noise JPEGs (--side, default 2400), its archive
 * asked for with `--query` (default `resize=1600&format=webp`) and fetched --runs times; prints images per second,
 * images per CPU-second of the API (its user + system time over the archive: per core), the MB/s read from the
 * originals and written into the archive, and the API's RSS; appends a row to docs/benchmarks.md ("Web-ready ZIP").
 *
 *   node_modules/.bin/tsx bench/zip.ts --web --images=40 --side=2400 [--query=resize=1600&format=webp] [--runs=1]
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { createFsObjectStore, imageObjectKey } from '../packages/storage/src/index';
import {
  API_ENTRY,
  appendBenchmarkRow,
  argValue,
  createUser,
  fmt,
  getJson,
  type ImageFile,
  isolatedEnvironment,
  log,
  MB,
  machine,
  mapLimit,
  mib,
  procStatus,
  RssSampler,
  runBench,
  sleep,
  startService,
  tempDir,
  uploadFiles,
  WORKER_ENTRY,
  writeJpeg,
} from './support';

const SMALL = 10;
const PAIRS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Random pixels of its own per image: every file is distinct (uploads refuse duplicates) and barely compresses. */
async function generate(dir: string, count: number, side: number, prefix: string): Promise<ImageFile[]> {
  return mapLimit(
    Array.from({ length: count }, (_, i) => i),
    4,
    (i) =>
      writeJpeg(join(dir, `${prefix}-${String(i).padStart(4, '0')}.jpg`), randomBytes(side * side * 3), side, side, 80),
  );
}

/** Polls until every image of the batch is analysed (named by the worker). */
async function waitForNames(apiUrl: string, key: string, batchId: string, count: number) {
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    const { body } = await getJson(`${apiUrl}/api/batch/${batchId}/status`, key);
    if (body.status === 'completed' && body.processed === count) return;
    if (body.status === 'failed' || Date.now() > deadline)
      throw new Error(`batch not analysed: ${JSON.stringify(body)}`);
    await sleep(250);
  }
}

interface ZipTiming {
  bytes: number;
  firstByteMs: number;
  totalMs: number;
}

/** GET of the archive on a connection of its own; the bytes are counted, not kept. */
function fetchArchive(url: string): Promise<ZipTiming> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = Number.NaN;
    get(url, { agent: false }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`the archive answered ${response.statusCode}`));
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
      });
      response.once('end', () => resolve({ bytes, firstByteMs, totalMs: performance.now() - started }));
      response.once('error', reject);
    }).once('error', reject);
  });
}

/** The baseline: every object of the batch read from the store, one after another, the bytes counted. */
async function readObjects(store: ReturnType<typeof createFsObjectStore>, keys: string[]) {
  const started = performance.now();
  let bytes = 0;
  for (const key of keys) for await (const chunk of await store.get(key)) bytes += (chunk as Buffer).length;
  return { bytes, ms: performance.now() - started };
}

/** The process's user + system CPU time in seconds (/proc/<pid>/stat, clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** `--web`: the archive of web-ready copies, re-encoded by the API one entry at a time. */
async function webReady() {
  await runBench('zip-web', 40, async (cleanup) => {
    const runs = Number(argValue('runs', '1'));
    const count = Number(argValue('images', '40'));
    const side = Number(argValue('side', '2400'));
    const query = argValue('query', 'resize=1600&format=webp');
    const m = machine();
    log(
      `zip --web: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}; code ${m.code}; load ${m.loadAverage}`,
    );
    const dir = tempDir(cleanup, 'zip-web-photos');
    const files = await generate(dir, count, side, 'web');
    const inputBytes = files.reduce((sum, file) => sum + file.size, 0);
    log(`  ${count} × ${side}×${side} noise JPEG, ${fmt(inputBytes / MB)} MB`);

    const { env } = await isolatedEnvironment(cleanup, 'zip-web');
    const serviceEnv = { ...env, UPLOAD_MAX_FILES: String(Math.max(100, count)) };
    const api = await startService(cleanup, 'api', API_ENTRY, 'API_PORT', serviceEnv);
    await startService(cleanup, 'worker', WORKER_ENTRY, 'WORKER_PORT', { ...serviceEnv, WORKER_CONCURRENCY: '2' });
    const { key } = await createUser(env.DATABASE_URL!);
    const upload = await uploadFiles(api.url, key, files, { name: 'zip bench web-ready' });
    if (upload.status !== 201) throw new Error(`upload answered ${upload.status}: ${JSON.stringify(upload.body)}`);
    const batchId = upload.body.batchId as string;
    await waitForNames(api.url, key, batchId, count);

    for (let run = 1; run <= runs; run++) {
      const link = await fetch(`${api.url}/api/batch/${batchId}/download?${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
      if (link.status !== 200) throw new Error(`the link answered ${link.status}: ${await link.text()}`);
      const { url } = (await link.json()) as { url: string };
      await sleep(500);
      const before = procStatus(api.pid).VmRSS ?? 0;
      const cpuBefore = cpuSeconds(api.pid);
      const sampler = new RssSampler(api.pid);
      sampler.start(20);
      const zip = await fetchArchive(url);
      const peak = sampler.stop().peak;
      const cpu = cpuSeconds(api.pid) - cpuBefore;
      const seconds = zip.totalMs / 1000;
      const load = machine().loadAverage;
      log(
        `\nrun ${run}: ${count} images in ${fmt(seconds)} s (${fmt(count / seconds)} images/s), API CPU ${fmt(cpu)} s ` +
          `(${fmt(count / cpu)} images per CPU-second); originals ${fmt(inputBytes / MB / seconds)} MB/s, archive ` +
          `${fmt(zip.bytes / MB)} MB at ${fmt(zip.bytes / MB / seconds)} MB/s; RSS ${mib(before)} → peak ${mib(peak)} MiB; load ${load}`,
      );
      appendBenchmarkRow('Web-ready ZIP', [
        new Date().toISOString().slice(0, 10),
        m.code,
        load,
        query.replaceAll('|', '\\|'),
        `${count} × ${side}²`,
        fmt(inputBytes / MB),
        fmt(zip.bytes / MB),
        fmt(count / seconds),
        fmt(count / cpu),
        fmt(inputBytes / MB / seconds),
        fmt(zip.bytes / MB / seconds),
        mib(before),
        mib(peak),
      ]);
    }
    log('\nrows appended to docs/benchmarks.md ("Web-ready ZIP")');
  });
}

async function main() {
  if (process.argv.includes('--web')) return webReady();
  await runBench('zip', 40, async (cleanup) => {
    const runs = Number(argValue('runs', '1'));
    const large = Number(argValue('images', '1000'));
    const side = Number(argValue('side', '640'));
    const m = machine();
    log(`zip: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, Linux ${m.kernel}`);
    log(`code ${m.code}; load average at start: ${m.loadAverage}`);

    const dir = tempDir(cleanup, 'zip-photos');
    const started = performance.now();
    const batches = {
      small: await generate(dir, SMALL, side, 'small'),
      large: await generate(dir, large, side, 'large'),
    };
    const sizeOf = (files: ImageFile[]) => files.reduce((sum, file) => sum + file.size, 0);
    log(
      `  ${SMALL} + ${large} × ${side}×${side} noise JPEG, ${fmt(sizeOf(batches.large) / MB)} MB in the large batch, ` +
        `generated in ${fmt((performance.now() - started) / 1000)} s`,
    );

    const { env } = await isolatedEnvironment(cleanup, 'zip');
    const serviceEnv = { ...env, UPLOAD_MAX_FILES: String(Math.max(100, large)) };
    const api = await startService(cleanup, 'api', API_ENTRY, 'API_PORT', serviceEnv);
    await startService(cleanup, 'worker', WORKER_ENTRY, 'WORKER_PORT', { ...serviceEnv, WORKER_CONCURRENCY: '4' });
    const { key, userId } = await createUser(env.DATABASE_URL!);
    const store = createFsObjectStore({
      dir: env.STORAGE_DIR!,
      publicUrl: api.url,
      signingSecret: env.SESSION_SECRET!,
    });

    const uploaded: Record<keyof typeof batches, { batchId: string; keys: string[] }> = {} as never;
    for (const [name, files] of Object.entries(batches) as [keyof typeof batches, ImageFile[]][]) {
      const upload = await uploadFiles(api.url, key, files, { name: `zip bench ${name}` });
      if (upload.status !== 201) throw new Error(`upload answered ${upload.status}: ${JSON.stringify(upload.body)}`);
      const batchId = upload.body.batchId as string;
      const analysing = performance.now();
      await waitForNames(api.url, key, batchId, files.length);
      log(`  ${name}: ${files.length} uploaded and analysed in ${fmt((performance.now() - analysing) / 1000)} s`);
      const accepted = upload.body.accepted as { imageId: string }[];
      uploaded[name] = { batchId, keys: accepted.map(({ imageId }) => imageObjectKey(userId, imageId)) };
    }

    const rows: string[][] = [];
    for (let run = 1; run <= runs; run++) {
      for (const name of ['small', 'large'] as const) {
        const { batchId, keys } = uploaded[name];
        const link = await fetch(`${api.url}/api/batch/${batchId}/download`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
        });
        const { url } = (await link.json()) as { url: string };
        // Pairs taken one after the other, medians reported: the shared machine's load moves both within seconds.
        const pairs: { read: number; zip: number; firstByteMs: number; bytes: number }[] = [];
        let before = Number.POSITIVE_INFINITY;
        let peak = 0;
        for (let pair = 0; pair < PAIRS; pair++) {
          const read = await readObjects(store, keys);
          await sleep(500);
          before = Math.min(before, procStatus(api.pid).VmRSS ?? 0);
          const sampler = new RssSampler(api.pid);
          sampler.start(20);
          const zip = await fetchArchive(url);
          peak = Math.max(peak, sampler.stop().peak);
          pairs.push({
            read: read.bytes / MB / (read.ms / 1000),
            zip: zip.bytes / MB / (zip.totalMs / 1000),
            firstByteMs: zip.firstByteMs,
            bytes: zip.bytes,
          });
        }
        const zipRate = median(pairs.map((p) => p.zip));
        const readRate = median(pairs.map((p) => p.read));
        const firstByteMs = median(pairs.map((p) => p.firstByteMs));
        const load = machine().loadAverage;
        log(
          `\nrun ${run}, ${keys.length} images, ${PAIRS} pairs: ZIP of ${fmt(pairs[0]!.bytes / MB)} MB ` +
            `${pairs.map((p) => fmt(p.zip)).join(' / ')} MB/s, first byte after ` +
            `${pairs.map((p) => fmt(p.firstByteMs)).join(' / ')} ms; reading the objects ` +
            `${pairs.map((p) => fmt(p.read)).join(' / ')} MB/s; ratio of the medians ${fmt(zipRate / readRate, 2)}`,
        );
        log(`  API RSS ${mib(before)} MiB before, peak ${mib(peak)} MiB (+${mib(peak - before)}); load ${load}`);
        rows.push([
          new Date().toISOString().slice(0, 10),
          m.code,
          load,
          `${keys.length}`,
          fmt(pairs[0]!.bytes / MB),
          fmt(zipRate),
          fmt(readRate),
          fmt(zipRate / readRate, 2),
          fmt(firstByteMs),
          mib(before),
          mib(peak),
        ]);
      }
    }
    for (const row of rows) appendBenchmarkRow('ZIP download', row);
    log('\nrows appended to docs/benchmarks.md ("ZIP download")');
  });
}

await main();
