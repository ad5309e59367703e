/**
 * Upload throughput: one `POST /api/batch` of distinct 12-megapixel JPEGs (photo-like, 3–5 MB each) to the
 * API running as its own process, against a baseline in the same run: sharp fully decoding the same files
 * one after another in a separate process. Prints both, the ratio, and the API's RSS just before, at its
 * peak during and 1.5 s after the upload; appends a dated row to docs/benchmarks.md ("Upload throughput").
 *
 *   npm run bench -- upload [--files=50] [--mode=production|development]
 *   node_modules/.bin/tsx bench/upload.ts [--files=50] [--mode=production|development]
 *
 * --mode=development runs the API with NODE_ENV=development and LOG_LEVEL=warn; production is the default.
 */
import { spawn } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatePhotos } from './photos';
import {
  API_ENTRY,
  appendBenchmarkRow,
  argValue,
  type Cleanup,
  cpuSeconds,
  createUser,
  fmt,
  isolatedEnvironment,
  log,
  MB,
  machine,
  mib,
  procStatus,
  ROOT,
  RssSampler,
  runBench,
  sharp,
  sleep,
  startService,
  tempDir,
  uploadFiles,
  writeJpeg,
} from './support';

const BASELINE_FLAG = '--decode-serially';

/** The baseline's own process: every file decoded to raw pixels at full size, one after another. */
async function decodeSerially(dir: string) {
  const paths = readdirSync(dir)
    .filter((name) => name.startsWith('photo-'))
    .sort()
    .map((name) => join(dir, name));
  const bytes = paths.reduce((sum, path) => sum + readFileSync(path).length, 0);
  const started = performance.now();
  for (const path of paths) await sharp(path).raw().toBuffer();
  const ms = performance.now() - started;
  process.stdout.write(`${JSON.stringify({ files: paths.length, bytes, ms, threads: sharp.concurrency() })}\n`);
}

async function baseline(cleanup: Cleanup, dir: string): Promise<{ bytes: number; ms: number; threads: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/upload.ts'), `${BASELINE_FLAG}=${dir}`], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // An abort (Ctrl-C, the time limit) stops the decoding too.
  cleanup.add(`stop the baseline (pid ${child.pid})`, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the baseline process exited with ${code}`);
  return JSON.parse(output.trim().split('\n').at(-1)!);
}

async function main() {
  await runBench('upload', 30, async (cleanup) => {
    const count = Number(argValue('files', '50'));
    const mode = argValue('mode', 'production');
    if (mode !== 'production' && mode !== 'development') throw new Error('--mode is production or development');
    const m = machine();
    log(`upload: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, Linux ${m.kernel}`);
    log(`code ${m.code}; load average at start: ${m.loadAverage}; mode ${mode}`);

    const dir = tempDir(cleanup, 'upload-photos');
    const files = await generatePhotos(dir, count);
    const warmup = await writeJpeg(join(dir, 'warmup.jpg'), randomFillSync(Buffer.alloc(64 * 48 * 3)), 64, 48, 90);

    const { env } = await isolatedEnvironment(cleanup, 'upload');
    const api = await startService(cleanup, 'api', API_ENTRY, 'API_PORT', {
      ...env,
      NODE_ENV: mode,
      LOG_LEVEL: mode === 'development' ? 'warn' : env.LOG_LEVEL!,
      UPLOAD_MAX_FILES: String(Math.max(100, count)),
    });
    const { key } = await createUser(env.DATABASE_URL!);
    // Loads what the first upload loads lazily (multipart parser, sharp), so "before" is a warm idle API.
    const warm = await uploadFiles(api.url, key, [warmup]);
    if (warm.status !== 201) throw new Error(`warm-up upload answered ${warm.status}: ${JSON.stringify(warm.body)}`);
    await sleep(1500);

    const before = procStatus(api.pid).VmRSS ?? 0;
    const cpuBefore = cpuSeconds(api.pid);
    const sampler = new RssSampler(api.pid);
    sampler.start(20);
    const timing = await uploadFiles(api.url, key, files, { name: 'bench upload' });
    const { peak } = sampler.stop();
    const apiCpu = cpuSeconds(api.pid) - cpuBefore;
    const accepted = Array.isArray(timing.body.accepted) ? timing.body.accepted.length : 0;
    if (timing.status !== 201 || accepted !== count) {
      throw new Error(`the upload answered ${timing.status}, ${accepted} accepted: ${JSON.stringify(timing.body)}`);
    }
    await sleep(1500);
    const after = procStatus(api.pid).VmRSS ?? 0;
    await api.process.stop();

    const decoded = await baseline(cleanup, dir);
    const figure = timing.bytes / MB / (timing.totalMs / 1000);
    const reference = decoded.bytes / MB / (decoded.ms / 1000);
    const ratio = figure / reference;
    log(
      `\nupload: ${count} files, ${fmt(timing.bytes / MB)} MB in ${fmt(timing.totalMs / 1000, 2)} s = ` +
        `${fmt(figure)} MB/s (API CPU ${fmt(apiCpu, 2)} s, ${fmt((apiCpu / timing.totalMs) * 1000, 2)} cores busy)`,
    );
    log(
      `baseline: sharp decoding the same files one after another in its own process (${decoded.threads} ` +
        `libvips thread(s)): ${fmt(decoded.ms / 1000, 2)} s = ${fmt(reference)} MB/s`,
    );
    log(`ratio: ${fmt(ratio, 2)}`);
    log(
      `API RSS: ${mib(before)} MiB before, peak ${mib(peak)} MiB (+${mib(peak - before)}), ` +
        `${mib(after)} MiB 1.5 s after (+${mib(after - before)})`,
    );

    const date = new Date().toISOString().slice(0, 10);
    appendBenchmarkRow('Upload throughput', [
      date,
      m.code,
      `${m.cpus}`,
      mode,
      `${count}`,
      fmt(timing.bytes / MB),
      fmt(figure),
      fmt(reference),
      fmt(ratio, 2),
      mib(before),
      `+${mib(peak - before)}`,
      `+${mib(after - before)}`,
      fmt(apiCpu, 1),
    ]);
    log('row appended to docs/benchmarks.md ("Upload throughput")');
  });
}

const baselineDir = process.argv.find((arg) => arg.startsWith(`${BASELINE_FLAG}=`))?.slice(BASELINE_FLAG.length + 1);
await (baselineDir ? decodeSerially(baselineDir) : main());
