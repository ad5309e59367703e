/**
 * Decode + preview cost per format: what the worker does per image (open upright, decode to the analysis size,
 * flatten for the analysis pixels, encode the WebP preview from the same decode) and what the API does for a
 * missing preview (open upright for 512 px, encode) and for a large one on demand (open upright for 1600 px,
 * encode). One image at a time, in this process; prints the median and p90 of each over `--runs`, and the RSS
 * afterwards, and appends one dated row per file to docs/benchmarks.md ("Decode and preview per format").
 *
 *   npm run bench -- decode-preview [--runs=9]
 *
 * Every file is 12 megapixels: a fixture photograph upscaled to 4000×3000 and written by sharp (JPEG quality
 * 90, the same as CMYK JPEG, 16-bit PNG), by `heif-enc` (HEIC, as a phone writes it; skipped where Debian's
 * libheif-examples is not installed), and as the full-size preview of fixtures/camera's DNG and CR2 (written
 * into them with ExifTool, as a camera embeds it).
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImageFormat } from '../packages/contracts/src/index';
import { closeCameraDecoding, encodePreview, openUprightImage, previewOfFile } from '../packages/imaging/src/index';
import { ANALYSIS_EDGE_PX, analysisPixels, decodeUpright } from '../packages/vision/src/decoded-image';
import { appendBenchmarkRow, argValue, fmt, log, machine, mib, ROOT, table } from './support';

// The full sharp API, as the worker has it (support.ts types only what the other benchmarks use).
const sharp = createRequire(join(ROOT, 'packages/vision/package.json'))(
  'sharp',
) as typeof import('../packages/vision/node_modules/sharp');

const { ExifTool } = createRequire(join(ROOT, 'packages/imaging/package.json'))(
  'exiftool-vendored',
) as typeof import('../packages/imaging/node_modules/exiftool-vendored');

const runs = Number(argValue('runs', '9'));
const RESULTS_HEADING = 'Decode and preview per format';
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

const exiftool = new ExifTool();
const dir = await mkdtemp(join(tmpdir(), 'renamer-bench-decode-preview-'));
const twelveMp = sharp(photo).resize(4000, 3000, { fit: 'fill' });
const jpeg = join(dir, 'photo.jpg');
await writeFile(jpeg, await twelveMp.clone().jpeg({ quality: 90 }).toBuffer());
await writeFile(join(dir, 'cmyk.jpg'), await twelveMp.clone().toColourspace('cmyk').jpeg({ quality: 90 }).toBuffer());
await writeFile(join(dir, 'deep.png'), await twelveMp.clone().toColourspace('rgb16').png().toBuffer());

/** A camera file of fixtures/camera carrying the 12 MP JPEG as its full-size preview. */
async function rawWithPreview(fixture: string, tag: string): Promise<string> {
  const path = join(dir, fixture);
  await copyFile(camera(fixture), path);
  await exiftool.write(path, {}, { writeArgs: ['-overwrite_original', `-${tag}<=${jpeg}`] });
  return path;
}

function heic(): string | undefined {
  const path = join(dir, 'photo.heic');
  try {
    execFileSync('heif-enc', ['-q', '60', '-o', path, jpeg], { stdio: 'ignore' });
    return path;
  } catch {
    log('heif-enc is not installed (Debian: libheif-examples): no HEIC row');
    return undefined;
  }
}

const heicPath = heic();
const files: [string, string, ImageFormat][] = [
  ['12 MP JPEG', jpeg, 'jpeg'],
  ['12 MP CMYK JPEG', join(dir, 'cmyk.jpg'), 'jpeg'],
  ['12 MP 16-bit PNG', join(dir, 'deep.png'), 'png'],
  ...(heicPath ? [['12 MP HEIC', heicPath, 'heic'] as [string, string, ImageFormat]] : []),
  ['DNG, 12 MP preview', await rawWithPreview('dragonfly.dng', 'PreviewImage'), 'dng'],
  ['CR2, 12 MP preview', await rawWithPreview('IMG_0412.CR2', 'PreviewImage'), 'cr2'],
];
await exiftool.end();

const rows: string[][] = [];
for (const [label, path, format] of files) {
  try {
    await workerPath(path, format);
    const analysis = await timed(() => workerPath(path, format));
    const onDemand = await timed(() => previewOfFile(path, format));
    const large = await timed(() => previewOfFile(path, format, 'large'));
    const row = [label, ...[analysis, onDemand, large].flatMap(({ median, p90 }) => [fmt(median, 0), fmt(p90, 0)])];
    rows.push(row);
    const { code, cpus } = machine();
    appendBenchmarkRow(RESULTS_HEADING, [new Date().toISOString().slice(0, 10), code, String(cpus), ...row]);
  } catch (error) {
    rows.push([label, `not opened: ${(error as Error).message.slice(0, 60)}`, '', '', '', '', '']);
  }
}
log(`decode + preview, ${runs} runs each, ms`);
log(
  table(
    [
      'file',
      'analysis decode + preview, median',
      'p90',
      'preview on demand, median',
      'p90',
      'large on demand, median',
      'p90',
    ],
    rows,
  ),
);
log(`RSS afterwards: ${mib(process.memoryUsage().rss)} MiB`);
await closeCameraDecoding();
await rm(dir, { recursive: true, force: true });
