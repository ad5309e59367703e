/**
 * Throughput of the analysis pipeline: one API process and 1, then 2, worker processes
 * (WORKER_CONCURRENCY=4 analyses at once each) on loopback; one batch of 200 distinct 800×600 JPEG photos is uploaded,
 * and the time from the upload's response to the batch reaching `completed` (polled every 100 ms on
 * GET /api/batch/:id/status) gives images per second. Every configuration has its own database, Redis
 * prefix, user and directories, and first runs a small warm-up batch so cold starts are not measured.
 *
 *   node_modules/.bin/tsx bench/pipeline-throughput.ts [--runs=2] [--images=200] [--workers=1,2]
 *                                                      [--names=descriptive|camera] [--batch-name=NAME]
 *                                                      [--limit-min=20]
 *
 * By default the files have descriptive names (`golden-harbor.jpg`, each its own) and the batch has no
 * name, so every proposed filename is different. --names=camera (`IMG_0001.jpg`) or a --batch-name make
 * the proposals collide, and the worker numbers them; see docs/benchmarks.md for what happens past 50.
 *
 * Runs are interleaved (1 worker, 2 workers, 1 worker, 2 workers …) so drift in the machine's load
 * spreads over both.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  API_ENTRY,
  argValue,
  type Cleanup,
  cpuSeconds,
  createUser,
  fmt,
  getJson,
  type ImageFile,
  isolatedEnvironment,
  log,
  MB,
  machine,
  machineCpu,
  mapLimit,
  mib,
  procStatus,
  runBench,
  type Service,
  scrapeMetric,
  sleep,
  startService,
  table,
  tempDir,
  uploadFiles,
  WORKER_ENTRY,
  writeJpeg,
} from './support';

const WIDTH = 800;
const HEIGHT = 600;
const WARMUP_IMAGES = 4;
const FINISHED = new Set(['completed', 'failed', 'cancelled']);

interface Row {
  run: number;
  workers: number;
  images: number;
  uploadMs: number;
  uploadTailMs: number;
  pipelineMs: number;
  serverPipelineMs: number;
  status: string;
  counts: Record<string, number>;
  apiCpu: number;
  workerCpu: number;
  machineBusy: number;
  meanJobMs: number;
  workerPeakRss: number[];
  halfMs: number;
}

/** A smooth two-colour gradient with mild noise: photo-like (compresses like a photo), different per seed. */
function photoPixels(): Buffer {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  const from = [randomInt(256), randomInt(256), randomInt(256)];
  const to = [randomInt(256), randomInt(256), randomInt(256)];
  const angle = Math.random() * Math.PI;
  const [cx, cy] = [Math.cos(angle), Math.sin(angle)];
  const span = Math.abs(cx) * WIDTH + Math.abs(cy) * HEIGHT;
  let state = randomInt(2 ** 31);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const t = Math.min(1, Math.max(0, ((x - WIDTH / 2) * cx + (y - HEIGHT / 2) * cy) / span + 0.5));
      const offset = (y * WIDTH + x) * 3;
      for (let channel = 0; channel < 3; channel++) {
        state = (state * 1103515245 + 12345) & 0x7fffffff;
        const value = from[channel]! + (to[channel]! - from[channel]!) * t + ((state >> 16) % 17) - 8;
        raw[offset + channel] = Math.max(0, Math.min(255, Math.round(value)));
      }
    }
  }
  return raw;
}

const ADJECTIVES =
  'amber autumn bright calm coastal crimson dusty early foggy frozen golden green hidden misty quiet rainy rocky rustic silver sunny'.split(
    ' ',
  );
const NOUNS =
  'beach bridge canyon castle cliff forest garden harbor lake lighthouse market meadow mountain orchard river road street tower valley village'.split(
    ' ',
  );

/**
 * `descriptive`: `golden-harbor.jpg`, a different pair of words per file (400 at most), so each proposal
 * is its own. `camera`: `IMG_0001.jpg`, which the filename rules drop as a camera counter, so every
 * proposal falls back to the orientation word (`landscape.jpg`) and the worker must number them.
 */
function fileName(names: string, label: string, i: number): string {
  if (names === 'camera') return `${label === 'warmup' ? 'DSC' : 'IMG'}_${String(i).padStart(4, '0')}.jpg`;
  const index = label === 'warmup' ? ADJECTIVES.length * NOUNS.length - 1 - i : i;
  if (index >= ADJECTIVES.length * NOUNS.length) throw new Error('at most 396 descriptive names');
  return `${ADJECTIVES[index % ADJECTIVES.length]}-${NOUNS[Math.floor(index / ADJECTIVES.length)]}.jpg`;
}

async function generate(dir: string, count: number, label: string, names: string): Promise<ImageFile[]> {
  const sub = join(dir, label);
  mkdirSync(sub);
  return mapLimit(
    Array.from({ length: count }, (_, i) => i),
    2,
    (i) => writeJpeg(join(sub, fileName(names, label, i)), photoPixels(), WIDTH, HEIGHT, 85),
  );
}

/** The distinct warnings and errors a service logged (pino JSON lines), for a run that went wrong. */
function loggedProblems(service: Service): string[] {
  const seen = new Map<string, number>();
  for (const line of service.process.output().split('\n')) {
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) < 40) continue;
      const text = `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`.slice(0, 200);
      seen.set(text, (seen.get(text) ?? 0) + 1);
    } catch {
      // not a log line
    }
  }
  return [...seen].map(([text, count]) => `${count} × ${text}`);
}

async function waitUntilFinished(apiUrl: string, key: string, batchId: string, total: number, timeoutMs: number) {
  const started = performance.now();
  let halfMs = Number.NaN;
  for (;;) {
    const { status, body } = await getJson(`${apiUrl}/api/batch/${batchId}/status`, key);
    if (status !== 200) throw new Error(`status answered ${status}: ${JSON.stringify(body)}`);
    if (Number.isNaN(halfMs) && Number(body.processed) >= total / 2) halfMs = performance.now() - started;
    if (FINISHED.has(String(body.status))) return { body, elapsedMs: performance.now() - started, halfMs };
    if (performance.now() - started > timeoutMs) throw new Error(`batch not finished: ${JSON.stringify(body)}`);
    await sleep(100);
  }
}

async function oneConfiguration(
  parent: Cleanup,
  run: number,
  workerCount: number,
  images: ImageFile[],
  warmup: ImageFile[],
  batchName: string,
): Promise<Row> {
  const local = parent.child(`run ${run}, ${workerCount} worker(s)`);
  try {
    const { env } = await isolatedEnvironment(local, `pipeline-${run}-${workerCount}w`);
    const api = await startService(local, 'api', API_ENTRY, 'API_PORT', {
      ...env,
      UPLOAD_MAX_FILES: String(Math.max(100, images.length)),
    });
    const workers: Service[] = [];
    for (let i = 0; i < workerCount; i++) {
      workers.push(
        await startService(local, `worker ${i + 1}`, WORKER_ENTRY, 'WORKER_PORT', {
          ...env,
          PUBLIC_URL: api.url,
          WORKER_CONCURRENCY: '4',
        }),
      );
    }
    const { key } = await createUser(env.DATABASE_URL!);

    const warm = await uploadFiles(api.url, key, warmup);
    if (warm.status !== 201) throw new Error(`warm-up upload answered ${warm.status}: ${JSON.stringify(warm.body)}`);
    await waitUntilFinished(api.url, key, String(warm.body.batchId), warmup.length, 60_000);
    const jobsBefore = await Promise.all(
      workers.map(async (w) => ({
        sum: await scrapeMetric(w.url, 'job_duration_seconds_sum', 'job="analyze-image"'),
        count: await scrapeMetric(w.url, 'job_duration_seconds_count', 'job="analyze-image"'),
      })),
    );
    await sleep(1000);

    const upload = await uploadFiles(api.url, key, images, batchName ? { name: batchName } : {});
    const accepted = Array.isArray(upload.body.accepted) ? upload.body.accepted.length : 0;
    if (upload.status !== 201 || accepted !== images.length) {
      throw new Error(`upload answered ${upload.status}, ${accepted} accepted: ${JSON.stringify(upload.body)}`);
    }
    const cpu0 = { api: cpuSeconds(api.pid), workers: workers.map((w) => cpuSeconds(w.pid)), machine: machineCpu() };
    const done = await waitUntilFinished(api.url, key, String(upload.body.batchId), images.length, 5 * 60_000);
    const machine1 = machineCpu();
    const workerCpu = workers.reduce((sum, w, i) => sum + cpuSeconds(w.pid) - cpu0.workers[i]!, 0);
    const jobsAfter = await Promise.all(
      workers.map(async (w) => ({
        sum: await scrapeMetric(w.url, 'job_duration_seconds_sum', 'job="analyze-image"'),
        count: await scrapeMetric(w.url, 'job_duration_seconds_count', 'job="analyze-image"'),
      })),
    );
    const jobSeconds = jobsAfter.reduce((sum, after, i) => sum + after.sum - jobsBefore[i]!.sum, 0);
    const jobCount = jobsAfter.reduce((sum, after, i) => sum + after.count - jobsBefore[i]!.count, 0);
    const body = done.body;
    const row: Row = {
      run,
      workers: workerCount,
      images: images.length,
      uploadMs: upload.totalMs,
      uploadTailMs: upload.tailMs,
      pipelineMs: done.elapsedMs,
      serverPipelineMs: Date.parse(String(body.completedAt)) - Date.parse(String(body.createdAt)),
      status: String(body.status),
      counts: body.counts as Record<string, number>,
      apiCpu: cpuSeconds(api.pid) - cpu0.api,
      workerCpu,
      machineBusy: (machine1.busy - cpu0.machine.busy) / (machine1.total - cpu0.machine.total),
      meanJobMs: jobCount ? (jobSeconds / jobCount) * 1000 : Number.NaN,
      workerPeakRss: workers.map((w) => procStatus(w.pid).VmHWM ?? 0),
      halfMs: done.halfMs,
    };
    log(
      `  run ${run}, ${workerCount} worker(s): upload ${fmt(row.uploadMs / 1000, 2)} s; ${row.images} images ` +
        `${row.status} in ${fmt(row.pipelineMs / 1000, 2)} s = ${fmt(row.images / (row.pipelineMs / 1000))} images/s ` +
        `(server ${fmt(row.serverPipelineMs / 1000, 2)} s); counts ${JSON.stringify(row.counts)}`,
    );
    if ((row.counts.ready ?? 0) !== images.length) {
      log(`  ! only ${row.counts.ready ?? 0} of ${images.length} images became ready; the workers logged:`);
      for (const worker of workers) for (const problem of loggedProblems(worker)) log(`    ${worker.name}: ${problem}`);
    }
    return row;
  } finally {
    await local.run();
  }
}

await runBench('pipeline-throughput', Number(argValue('limit-min', '20')), async (cleanup) => {
  const runs = Number(argValue('runs', '1'));
  const count = Number(argValue('images', '200'));
  const workerCounts = argValue('workers', '1,2').split(',').map(Number);
  const batchName = argValue('batch-name', '');
  const names = argValue('names', 'descriptive');
  const m = machine();
  log(`pipeline-throughput: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, Linux ${m.kernel}`);
  log(`code ${m.code}; load average at start: ${m.loadAverage}`);
  log(
    `${count} images of ${WIDTH}×${HEIGHT}, workers ${workerCounts.join(' then ')}, ${runs} run(s), ` +
      `${names} file names, ${batchName ? `batch name "${batchName}"` : 'no batch name'}`,
  );

  const dir = tempDir(cleanup, 'pipeline-images');
  const started = performance.now();
  const images = await generate(dir, count, 'photo', names);
  const warmup = await generate(dir, WARMUP_IMAGES, 'warmup', names);
  const bytes = images.reduce((sum, file) => sum + file.size, 0);
  log(
    `generated ${count} photos (${fmt(bytes / MB)} MB, mean ${fmt(bytes / count / 1000, 0)} kB) ` +
      `in ${fmt((performance.now() - started) / 1000)} s`,
  );

  const rows: Row[] = [];
  for (let run = 1; run <= runs; run++) {
    for (const workers of workerCounts) {
      rows.push(await oneConfiguration(cleanup, run, workers, images, warmup, batchName));
    }
  }

  log('\nupload → batch completed (client clock; "server" is completedAt − createdAt of the batch)');
  log(
    table(
      [
        'run',
        'workers × concurrency',
        'images',
        'upload s',
        'upload after-body ms',
        'pipeline s',
        'images/s',
        'server pipeline s',
        'to half done s',
        'mean analyze-image job ms',
        'worker CPU s',
        'API CPU s',
        'machine busy %',
        'worker peak RSS MiB',
        'ready/failed',
      ],
      rows.map((r) => [
        r.run,
        `${r.workers} × 4`,
        r.images,
        fmt(r.uploadMs / 1000, 2),
        fmt(r.uploadTailMs, 0),
        fmt(r.pipelineMs / 1000, 2),
        fmt(r.images / (r.pipelineMs / 1000)),
        fmt(r.serverPipelineMs / 1000, 2),
        fmt(r.halfMs / 1000, 2),
        fmt(r.meanJobMs, 0),
        fmt(r.workerCpu, 2),
        fmt(r.apiCpu, 2),
        fmt(r.machineBusy * 100, 0),
        r.workerPeakRss.map(mib).join(', '),
        `${r.counts.ready ?? 0}/${r.counts.failed ?? 0}`,
      ]),
    ),
  );
  log(`\nload average at end: ${machine().loadAverage}`);
  log(`JSON ${JSON.stringify({ machine: m, rows })}`);
});
