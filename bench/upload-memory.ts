/**
 * Memory of the API while it takes uploads of growing size. The API runs as its own process; its RSS is
 * read from /proc/<pid>/status every 20 ms, and its kernel high-water mark (VmHWM, reset through
 * /proc/<pid>/clear_refs before each case) catches what falls between samples, while one request uploads
 *   (a) 1 file of ~20 MB, (b) 10 files of ~2 MB, (c) 100 files of ~1 MB, (d) 100 files of ~10 MB (~1 GB),
 *   and, only when asked for with --cases, (e) 200 files of ~10 MB (~2 GB) and (f) 10 files of ~1 MB.
 * The claim under test (docs/DESIGN.md: "memory stays flat in the number and size of files"): the peak is
 * about the same for (a) and (d); and (issue 9) a request of 100 files takes no more than one of 10 of the same
 * size: (c) against (f), `--cases=f,c --fresh`.
 *
 *   node_modules/.bin/tsx bench/upload-memory.ts [--runs=2] [--cases=a,b,c,d] [--fresh] [--timeline]
 *                                                [--limit-min=30]
 *
 * --fresh      a new API process for each case (by default one process takes the cases in order, as a
 *              long-running server would, so what one case leaves behind shows in the next)
 * --timeline   also prints, per case, the API's largest RSS in each second of the request, and its V8 heap
 *              and external (Buffer) memory scraped from /metrics once a second (a few small requests)
 *
 * The files are random-noise JPEGs at quality 100 (the worst case for JPEG: big files, slow decodes), each
 * with its own pixels, written once to a temporary directory and streamed from there by the client.
 */
import { randomFillSync } from 'node:crypto';
import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { inspectImageSafety, spoolToTempFile } from '../packages/imaging/src/index';
import {
  API_ENTRY,
  argValue,
  type Cleanup,
  cpuSeconds,
  createUser,
  type Environment,
  fmt,
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
  type Service,
  scrapeMetric,
  sleep,
  startService,
  table,
  tempDir,
  uploadFiles,
  writeJpeg,
} from './support';

const CASES = [
  { id: 'a', label: '1 × 20 MB', count: 1, bytes: 20 * MB },
  { id: 'b', label: '10 × 2 MB', count: 10, bytes: 2 * MB },
  { id: 'c', label: '100 × 1 MB', count: 100, bytes: 1 * MB },
  { id: 'd', label: '100 × 10 MB', count: 100, bytes: 10 * MB },
  { id: 'e', label: '200 × 10 MB', count: 200, bytes: 10 * MB },
  { id: 'f', label: '10 × 1 MB', count: 10, bytes: 1 * MB },
] as const;
type Case = (typeof CASES)[number];

/** Random RGB noise at quality 100 with 4:2:0 chroma comes out at about this many bytes per pixel. */
const JPEG_BYTES_PER_PIXEL = 1.4;

interface Options {
  timeline: boolean;
  fresh: boolean;
}

interface Row {
  run: number;
  caseId: string;
  label: string;
  files: number;
  requestBytes: number;
  baseline: number;
  before: number;
  peak: number;
  peakSampled: number;
  peakHwm: number | null;
  after: number;
  heapAfter: number;
  totalMs: number;
  sendMs: number;
  tailMs: number;
  apiCpuSeconds: number;
  clientRssGrowth: number;
  samples: number;
}

async function generate(dir: string, selected: Case[]): Promise<Map<string, ImageFile[]>> {
  const started = performance.now();
  const byCase = new Map<string, ImageFile[]>();
  for (const c of selected) {
    const side = Math.round(Math.sqrt(c.bytes / JPEG_BYTES_PER_PIXEL));
    // (e) reuses (d)'s hundred files and adds a hundred more.
    const reused = c.id === 'e' ? (byCase.get('d') ?? []) : [];
    const fresh = await mapLimit(
      Array.from({ length: c.count - reused.length }, (_, i) => i + reused.length),
      2,
      // Each file has its own noise, so no two share a checksum (the upload refuses duplicates).
      (i) =>
        writeJpeg(
          join(dir, `case-${c.id === 'e' ? 'd' : c.id}-${String(i).padStart(3, '0')}.jpg`),
          randomFillSync(Buffer.alloc(side * side * 3)),
          side,
          side,
          100,
        ),
    );
    const files = [...reused, ...fresh];
    byCase.set(c.id, files);
    const total = files.reduce((sum, file) => sum + file.size, 0);
    log(`  case ${c.id}: ${c.count} × ${side}×${side} JPEG, ${fmt(total / MB)} MB in all`);
  }
  log(`  generated in ${fmt((performance.now() - started) / 1000)} s`);
  return byCase;
}

/** Where one file's server time goes: the imaging steps on their own, in this process, median of three. */
async function breakdown(dir: string, selected: Case[], images: Map<string, ImageFile[]>) {
  const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
  const rows: (string | number)[][] = [];
  for (const c of selected) {
    const file = images.get(c.id)![0]!;
    const spool: number[] = [];
    const inspect: number[] = [];
    for (let i = 0; i < 3; i++) {
      let started = performance.now();
      const spooled = await spoolToTempFile(createReadStream(file.path), { dir, maxBytes: 64 * MB });
      spool.push(performance.now() - started);
      if (spooled.ok) await spooled.file.cleanup();
      started = performance.now();
      const result = await inspectImageSafety(file.path, { sniffedMime: 'image/jpeg', maxPixels: 100_000_000 });
      inspect.push(performance.now() - started);
      if (!result.ok) throw new Error(`${file.path}: ${result.detail}`);
    }
    rows.push([c.label, fmt(file.size / MB), fmt(median(spool), 0), fmt(median(inspect), 0)]);
  }
  log('\none file of each case through the imaging steps on their own (this process, median of 3)');
  log(table(['case', 'file MB', 'spoolToTempFile ms (SHA-256 + write)', 'inspectImageSafety ms'], rows));
}

async function startApi(local: Cleanup, env: Environment['env'], warmup: ImageFile) {
  const api = await startService(local, 'api', API_ENTRY, 'API_PORT', {
    ...env,
    UPLOAD_MAX_FILES: '200',
    UPLOAD_MAX_FILE_BYTES: String(32 * 2 ** 20),
  });
  const { key } = await createUser(env.DATABASE_URL!);
  const cold = procStatus(api.pid).VmRSS ?? 0;
  // Loads what the first upload loads lazily (multipart parser, sharp/libvips), so the baseline is a warm
  // idle API.
  const warm = await uploadFiles(api.url, key, [warmup]);
  if (warm.status !== 201) throw new Error(`warm-up upload answered ${warm.status}: ${JSON.stringify(warm.body)}`);
  await sleep(1500);
  const baseline = procStatus(api.pid).VmRSS ?? 0;
  log(`  api pid ${api.pid}: RSS ${mib(cold)} MiB cold, ${mib(baseline)} MiB idle after a warm-up upload`);
  return { api, baseline };
}

async function measureCase(
  run: number,
  c: Case,
  files: ImageFile[],
  { api, baseline }: { api: Service; baseline: number },
  key: string,
  spoolDir: string,
  options: Options,
): Promise<Row> {
  await sleep(500);
  const before = procStatus(api.pid).VmRSS ?? 0;
  const cpuBefore = cpuSeconds(api.pid);
  const sampler = new RssSampler(api.pid);
  sampler.start(20);
  const scrapes: string[] = [];
  const scraper = options.timeline
    ? setInterval(async () => {
        const [heap, external] = await Promise.all([
          scrapeMetric(api.url, 'nodejs_heap_size_used_bytes'),
          scrapeMetric(api.url, 'nodejs_external_memory_bytes'),
        ]).catch(() => [Number.NaN, Number.NaN]);
        scrapes.push(`${mib(heap!)}/${mib(external!)}`);
      }, 1000)
    : undefined;
  const timing = await uploadFiles(api.url, key, files, { name: `bench ${c.id}` });
  clearInterval(scraper);
  const peak = sampler.stop();
  const apiCpuSeconds = cpuSeconds(api.pid) - cpuBefore;
  const accepted = Array.isArray(timing.body.accepted) ? timing.body.accepted.length : 0;
  if (timing.status !== 201 || accepted !== c.count) {
    throw new Error(`case ${c.id}: answered ${timing.status}, ${accepted} accepted: ${JSON.stringify(timing.body)}`);
  }
  await sleep(1500);
  const after = procStatus(api.pid).VmRSS ?? 0;
  const heapAfter = await scrapeMetric(api.url, 'nodejs_heap_size_used_bytes');
  const leftovers = readdirSync(spoolDir).length;
  if (leftovers > 0) log(`  ! case ${c.id}: ${leftovers} spool files left in UPLOAD_TMP_DIR after the request`);
  log(
    `  case ${c.id} (${c.label}): ${fmt(timing.bytes / MB)} MB in ${fmt(timing.totalMs / 1000, 2)} s ` +
      `(${fmt(timing.bytes / MB / (timing.totalMs / 1000))} MB/s); API RSS peak ${mib(peak.peak)} MiB ` +
      `(+${mib(peak.peak - baseline)} over idle; sampled ${mib(peak.peakSampled)}, ` +
      `VmHWM ${peak.peakHwm === null ? 'n/a' : mib(peak.peakHwm)}), ${mib(after)} MiB 1.5 s later`,
  );
  if (options.timeline) {
    log(`    RSS MiB, largest per second: ${sampler.perSecond.map((rss) => mib(rss)).join(' ')}`);
    log(`    heap/external MiB, once a second: ${scrapes.join(' ')}`);
  }
  return {
    run,
    caseId: c.id,
    label: c.label,
    files: c.count,
    requestBytes: timing.bytes,
    baseline,
    before,
    peak: peak.peak,
    peakSampled: peak.peakSampled,
    peakHwm: peak.peakHwm,
    after,
    heapAfter,
    totalMs: timing.totalMs,
    sendMs: timing.sendMs,
    tailMs: timing.tailMs,
    apiCpuSeconds,
    clientRssGrowth: timing.clientRssGrowth,
    samples: peak.samples,
  };
}

async function oneRun(
  parent: Cleanup,
  run: number,
  selected: Case[],
  images: Map<string, ImageFile[]>,
  dir: string,
  options: Options,
) {
  const local = parent.child(`run ${run}`);
  const warmup = async (n: number) =>
    writeJpeg(join(dir, `warmup-${run}-${n}.jpg`), randomFillSync(Buffer.alloc(64 * 64 * 3)), 64, 64, 90);
  try {
    log(`\nrun ${run}${options.fresh ? ' (a new API process per case)' : ''}`);
    const { env } = await isolatedEnvironment(local, `upload-memory-${run}`);
    const rows: Row[] = [];
    let current = options.fresh ? null : await startApi(local, env, await warmup(0));
    for (const [index, c] of selected.entries()) {
      if (!current) current = await startApi(local, env, await warmup(index));
      // A user per case: (e) sends (d)'s files again, which the same user could not upload twice.
      const { key } = await createUser(env.DATABASE_URL!);
      rows.push(await measureCase(run, c, images.get(c.id)!, current, key, env.UPLOAD_TMP_DIR!, options));
      if (options.fresh) {
        await current.api.process.stop();
        current = null;
      }
    }
    return rows;
  } finally {
    await local.run();
  }
}

await runBench('upload-memory', Number(argValue('limit-min', '30')), async (cleanup) => {
  const runs = Number(argValue('runs', '1'));
  const wanted = argValue('cases', 'a,b,c,d').split(',');
  const selected = CASES.filter((c) => wanted.includes(c.id));
  const options: Options = { timeline: process.argv.includes('--timeline'), fresh: process.argv.includes('--fresh') };
  const m = machine();
  log(`upload-memory: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, Linux ${m.kernel}`);
  log(`code ${m.code}; load average at start: ${m.loadAverage}`);
  log(`cases ${selected.map((c) => c.id).join(',')}, ${runs} run(s)${options.fresh ? ', a new API per case' : ''}`);

  log('generating images (once, reused by every run; each run has its own database and user)');
  const dir = tempDir(cleanup, 'upload-images');
  // (e) is (d)'s files and a hundred more: (d)'s are generated even when only (e) is measured.
  const onlyE = wanted.includes('e') && !wanted.includes('d');
  const images = await generate(dir, onlyE ? [CASES[3], ...selected] : selected);

  const rows: Row[] = [];
  for (let run = 1; run <= runs; run++) rows.push(...(await oneRun(cleanup, run, selected, images, dir, options)));
  await breakdown(dir, selected, images);

  log('\nAPI process (own process, /proc/<pid>/status); MiB = 2^20 bytes, MB = 10^6 bytes');
  log(
    table(
      [
        'run',
        'case',
        'request MB',
        'idle RSS MiB',
        'RSS before MiB',
        'peak RSS MiB',
        'peak − idle MiB',
        'RSS after MiB',
        'heap after MiB',
        'wall s',
        'MB/s',
        'ms/file',
        'after-body ms',
        'API CPU s',
        'client RSS growth MiB',
      ],
      rows.map((r) => [
        r.run,
        r.label,
        fmt(r.requestBytes / MB),
        mib(r.baseline),
        mib(r.before),
        mib(r.peak),
        mib(r.peak - r.baseline),
        mib(r.after),
        mib(r.heapAfter),
        fmt(r.totalMs / 1000, 2),
        fmt(r.requestBytes / MB / (r.totalMs / 1000)),
        fmt(r.totalMs / r.files, 0),
        fmt(r.tailMs, 0),
        fmt(r.apiCpuSeconds, 2),
        mib(r.clientRssGrowth),
      ]),
    ),
  );
  log(`\nload average at end: ${machine().loadAverage}`);
  log(`JSON ${JSON.stringify({ machine: m, options, rows })}`);
});
