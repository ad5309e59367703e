/**
 * Decode + preview cost per format: what the worker does per image (open upright, decode to the analysis size,
 * flatten for the analysis pixels, encode the WebP preview from the same decode) and what the API does for a
 * missing preview (open upright for 512 px, encode). One image at a time, in this process; prints the median
 * and p90 of each over `--runs`, and the RSS afterwards. Nothing is appended to docs/benchmarks.md.
 *
 *   node_modules/.bin/tsx bench/decode-preview.ts [--runs=9]
 *
 * The 12-megapixel files are a fixture photograph upscaled to 4000×3000 and written by sharp (JPEG quality 90,
 * the same as CMYK JPEG, 16-bit PNG); the camera files are fixtures/camera's, through openUprightImage like any
 * other (a format it cannot open yet is reported as such).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImageFormat } from '../packages/contracts/src/index';
import { encodePreview, openUprightImage, previewOfFile } from '../packages/imaging/src/index';
import { ANALYSIS_EDGE_PX, analysisPixels, decodeUpright } from '../packages/vision/src/decoded-image';
import { argValue, fmt, log, mib, ROOT, table } from './support';

// The full sharp API, as the worker has it (support.ts types only what the other benchmarks use).
const sharp = createRequire(join(ROOT, 'packages/vision/package.json'))(
  'sharp',
) as typeof import('../packages/vision/node_modules/sharp');

const runs = Number(argValue('runs', '9'));
const photo = join(ROOT, 'fixtures/photos/colorful-cups.jpg');
const camera = (file: string) => join(ROOT, 'fixtures/camera', file);

async function workerPath(path: string, format: ImageFormat) {
  const opened = await openUprightImage(path, format, { maxEdge: ANALYSIS_EDGE_PX });
  try {
    const upright = await decodeUpright(opened.image);
    await analysisPixels(upright);
    const { data, width, height, channels } = upright;
    await encodePreview(sharp(data, { raw: { width, height, channels } }));
  } finally {
    await opened.release();
  }
}

async function timed(work: () => Promise<unknown>) {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p90: times[Math.ceil(times.length * 0.9) - 1]! };
}

const dir = await mkdtemp(join(tmpdir(), 'renamer-bench-decode-preview-'));
const twelveMp = sharp(photo).resize(4000, 3000, { fit: 'fill' });
const files: [string, string, ImageFormat][] = [
  ['12 MP JPEG', join(dir, 'photo.jpg'), 'jpeg'],
  ['12 MP CMYK JPEG', join(dir, 'cmyk.jpg'), 'jpeg'],
  ['12 MP 16-bit PNG', join(dir, 'deep.png'), 'png'],
  ['HEIC (colorful-cups.heic)', camera('colorful-cups.heic'), 'heic'],
  ['DNG (dragonfly.dng)', camera('dragonfly.dng'), 'dng'],
  ['CR2 (IMG_0412.CR2)', camera('IMG_0412.CR2'), 'cr2'],
];
await writeFile(files[0]![1], await twelveMp.clone().jpeg({ quality: 90 }).toBuffer());
await writeFile(files[1]![1], await twelveMp.clone().toColourspace('cmyk').jpeg({ quality: 90 }).toBuffer());
await writeFile(files[2]![1], await twelveMp.clone().toColourspace('rgb16').png().toBuffer());

const rows: string[][] = [];
for (const [label, path, format] of files) {
  try {
    await workerPath(path, format);
    const analysis = await timed(() => workerPath(path, format));
    const onDemand = await timed(() => previewOfFile(path, format));
    rows.push([label, fmt(analysis.median, 0), fmt(analysis.p90, 0), fmt(onDemand.median, 0), fmt(onDemand.p90, 0)]);
  } catch (error) {
    rows.push([label, `not opened: ${(error as Error).message.slice(0, 60)}`, '', '', '']);
  }
}
log(`decode + preview, ${runs} runs each, ms`);
log(table(['file', 'analysis decode + preview, median', 'p90', 'preview on demand, median', 'p90'], rows));
log(`RSS afterwards: ${mib(process.memoryUsage().rss)} MiB`);
await rm(dir, { recursive: true, force: true });
