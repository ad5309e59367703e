/**
 * Image analysis: the worker's full local analyser (file metadata, colours and scene, objects, text, safety)
 * over 12-megapixel JPEGs made from the fixture photographs, in this process, one image at a time (one
 * worker's share of a core) and then `--concurrency` at once (as a worker runs its jobs). Prints images per
 * second, each step's median and p90 duration, the time to load the models, and the RSS with the models
 * loaded; appends one dated row to docs/benchmarks.md ("Image analysis").
 *
 *   npm run bench -- analyze [--images=24] [--concurrency=4]
 *   node_modules/.bin/tsx bench/analyze.ts [--images=24] [--concurrency=4]
 *
 * Each image is a distinct fixture photograph upscaled to 4000×3000 (JPEG quality 90, about 3–5 MB), with
 * its metadata kept, so every step does the work it does on a camera's file.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createImageAnalyzer } from '../apps/worker/src/analysis/create-image-analyzer';
import { OPTIONAL_STEPS } from '../apps/worker/src/analysis/optional-steps';
import { createVisionToolkit } from '../apps/worker/src/analysis/vision-toolkit';
import { tuningPhotos } from '../packages/vision/src/testing/index';
import {
  appendBenchmarkRow,
  argValue,
  fmt,
  log,
  machine,
  mapLimit,
  mib,
  ROOT,
  runBench,
  table,
  tempDir,
} from './support';

// The full sharp API, as the analyser has it (support.ts types only what the other benchmarks use).
const sharp = createRequire(join(ROOT, 'packages/vision/package.json'))(
  'sharp',
) as typeof import('../packages/vision/node_modules/sharp');

const WIDTH = 4000;
const HEIGHT = 3000;
const context = { keywords: [], context: null, locale: 'en' };

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

await runBench('analyze', 20, async (cleanup) => {
  const count = Number(argValue('images', '24'));
  const concurrency = Number(argValue('concurrency', '4'));
  const dir = tempDir(cleanup, 'analyze');
  const photos = await tuningPhotos();
  const files: { path: string; originalFilename: string }[] = [];
  for (let index = 0; index < count; index++) {
    const photo = photos[index % photos.length]!;
    const path = join(dir, `${index}-${photo.file}`);
    // A different crop per round keeps the files distinct when there are more images than photographs.
    const round = Math.floor(index / photos.length);
    await sharp(photo.path)
      .resize({ width: WIDTH - round * 8, height: HEIGHT, fit: 'cover' })
      .extend({ right: round * 8, background: '#808080' })
      .keepMetadata()
      .jpeg({ quality: 90 })
      .toFile(path);
    files.push({ path, originalFilename: `IMG_${1000 + index}.JPG` });
  }

  const toolkit = createVisionToolkit({ ocrCachePath: join(dir, 'ocr'), safetyThreshold: 0.7, llm: null });
  cleanup.add('end the analyser', () => toolkit.close());
  const analyzer = createImageAnalyzer(toolkit, { steps: new Set(OPTIONAL_STEPS), llmTimeoutMs: 0 });

  const rssBefore = process.memoryUsage().rss;
  const loadStarted = performance.now();
  await Promise.all([toolkit.objects(), toolkit.safety(), toolkit.text()]);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  // One warm-up image: the first run of each WASM model compiles its kernels.
  await analyzer.analyze(files[0]!.path, { ...context, originalFilename: files[0]!.originalFilename });
  const rssLoaded = process.memoryUsage().rss;

  const stepTimes = new Map<string, number[]>();
  const run = async (limit: number) => {
    const started = performance.now();
    await mapLimit(files, limit, async (file) => {
      const analysis = await analyzer.analyze(file.path, { ...context, originalFilename: file.originalFilename });
      for (const record of analysis.provenance) {
        if (record.outcome !== 'ok') throw new Error(`step ${record.step} ${record.outcome}`);
        stepTimes.set(record.step, [...(stepTimes.get(record.step) ?? []), record.durationMs]);
      }
    });
    return count / ((performance.now() - started) / 1000);
  };
  const sequential = await run(1);
  const perStep = [...stepTimes].map(([step, times]) => [step, percentile(times, 50), percentile(times, 90)]);
  const parallel = await run(concurrency);
  const rssPeak = process.memoryUsage().rss;

  const about = machine();
  log(`${count} images of ${WIDTH}×${HEIGHT}; ${about.cpus} × ${about.cpuModel}; code ${about.code}`);
  log(`models loaded in ${fmt(loadSeconds, 2)} s; RSS ${mib(rssBefore)} MiB before, ${mib(rssLoaded)} MiB loaded`);
  log(`images per second: ${fmt(sequential, 2)} one at a time, ${fmt(parallel, 2)} with ${concurrency} at once`);
  log(`RSS after the runs: ${mib(rssPeak)} MiB`);
  log(table(['step', 'median ms', 'p90 ms'], perStep as (string | number)[][]));
  appendBenchmarkRow('Image analysis', [
    new Date().toISOString().slice(0, 10),
    about.code,
    String(count),
    fmt(sequential, 2),
    `${fmt(parallel, 2)} (${concurrency})`,
    perStep.map(([step, median]) => `${step} ${median}`).join(', '),
    fmt(loadSeconds, 2),
    mib(rssLoaded),
  ]);
});
