/**
 * Memory of the API while it takes uploads of growing size: the API runs as its own process; its RSS is
 * read from /proc every 20 ms (and its kernel high-water mark, reset before each case, catches what falls
 * between samples) while one request uploads
 *   (a) 1 file of ~20 MB, (b) 10 files of ~2 MB, (c) 100 files of ~1 MB, (d) 100 files of ~10 MB (~1 GB).
 * The claim under test (docs/DESIGN: "memory stays flat in the number and size of files"): the peak is
 * about the same for (a) and (d).
 *
 *   node_modules/.bin/tsx bench/upload-memory.ts [--runs=2] [--cases=a,b,c,d] [--limit-min=30]
 */
import { randomFillSync } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  API_ENTRY,
  argValue,
  Cleanup,
  cpuSeconds,
  createUser,
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
] as const;
type Case = (typeof CASES)[number];

/** Random RGB noise at quality 100 with 4:2:0 chroma comes out at about this many bytes per pixel. */
const JPEG_BYTES_PER_PIXEL = 1.4;

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
    // Each file has its own noise, so no two share a checksum (the upload refuses duplicates).
    const files = await mapLimit(
      Array.from({ length: c.count }, (_, i) => i),
      2,
      (i) =>
        writeJpeg(
          join(dir, `case-${c.id}-${String(i).padStart(3, '0')}.jpg`),
          randomFillSync(Buffer.alloc(side * side * 3)),
          side,
          side,
          100,
        ),
    );
    byCase.set(c.id, files);
    const total = files.reduce((sum, file) => sum + file.size, 0);
    log(`  case ${c.id}: ${c.count} × ${side}×${side} JPEG, ${fmt(total / MB)} MB in all`);
  }
  log(`  generated in ${fmt((performance.now() - started) / 1000)} s`);
  return byCase;
}

async function oneRun(run: number, selected: Case[], images: Map<string, ImageFile[]>, warmup: ImageFile) {
  const local = new Cleanup();
  try {
    const { env } = await isolatedEnvironment(local, `upload-memory-${run}`);
    const api = await startService(local, 'api', API_ENTRY, 'API_PORT', {
      ...env,
      UPLOAD_MAX_FILES: '200',
      UPLOAD_MAX_FILE_BYTES: String(32 * 2 ** 20),
    });
    const { key } = await createUser(env.DATABASE_URL!);
    const cold = procStatus(api.pid).VmRSS ?? 0;
    // Loads what the first upload loads lazily (multipart parser, sharp/libvips), so the baseline is a warm idle API.
    const warm = await uploadFiles(api.url, key, [warmup]);
    if (warm.status !== 201) throw new Error(`warm-up upload answered ${warm.status}: ${JSON.stringify(warm.body)}`);
    await sleep(1500);
    const baseline = procStatus(api.pid).VmRSS ?? 0;
    log(`\nrun ${run}: api pid ${api.pid}, RSS ${mib(cold)} MiB cold, ${mib(baseline)} MiB idle after a warm-up upload`);

    const rows: Row[] = [];
    for (const c of selected) {
      const files = images.get(c.id)!;
      await sleep(500);
      const before = procStatus(api.pid).VmRSS ?? 0;
      const cpuBefore = cpuSeconds(api.pid);
      const sampler = new RssSampler(api.pid);
      sampler.start(20);
      const timing = await uploadFiles(api.url, key, files, { name: `bench ${c.id}` });
      const peak = sampler.stop();
      const apiCpuSeconds = cpuSeconds(api.pid) - cpuBefore;
      const accepted = Array.isArray(timing.body.accepted) ? timing.body.accepted.length : 0;
      if (timing.status !== 201 || accepted !== c.count) {
        throw new Error(`case ${c.id}: answered ${timing.status}, ${accepted} accepted: ${JSON.stringify(timing.body)}`);
      }
      await sleep(1500);
      const after = procStatus(api.pid).VmRSS ?? 0;
      const heapAfter = await scrapeMetric(api.url, 'nodejs_heap_size_used_bytes');
      const leftovers = readdirSync(env.UPLOAD_TMP_DIR!).length;
      if (leftovers > 0) log(`  ! case ${c.id}: ${leftovers} spool files left in UPLOAD_TMP_DIR after the request`);
      const row: Row = {
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
      rows.push(row);
      log(
        `  case ${c.id} (${c.label}): ${fmt(timing.bytes / MB)} MB in ${fmt(timing.totalMs / 1000, 2)} s ` +
          `(${fmt(timing.bytes / MB / (timing.totalMs / 1000))} MB/s); API RSS peak ${mib(peak.peak)} MiB ` +
          `(+${mib(peak.peak - baseline)} over idle; sampled ${mib(peak.peakSampled)}, ` +
          `VmHWM ${peak.peakHwm === null ? 'n/a' : mib(peak.peakHwm)}), ${mib(after)} MiB 1.5 s later`,
      );
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
  const m = machine();
  log(`upload-memory: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, Linux ${m.kernel}`);
  log(`cases ${selected.map((c) => c.id).join(',')}, ${runs} run(s)`);

  log('generating images (once, reused by every run; each run has its own database and user)');
  const dir = tempDir(cleanup, 'upload-images');
  const images = await generate(dir, selected);
  const warmup = await writeJpeg(join(dir, 'warmup.jpg'), randomFillSync(Buffer.alloc(64 * 64 * 3)), 64, 64, 90);

  const rows: Row[] = [];
  for (let run = 1; run <= runs; run++) rows.push(...(await oneRun(run, selected, images, warmup)));

  log('\nAPI process (own process, /proc/<pid>/status); MiB = 2^20 bytes, MB = 10^6 bytes');
  log(
    table(
      [
        'run',
        'case',
        'request MB',
        'idle RSS MiB',
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
  log(`\nJSON ${JSON.stringify({ machine: m, rows })}`);
});
