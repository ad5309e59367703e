/** Photo-like test files for the benchmarks that send real-sized photos (upload, web). */
import { join } from 'node:path';
import { fmt, type ImageFile, log, MB, writeJpeg } from './support';

const WIDTH = 4000;
const HEIGHT = 3000;
/** Cells of the coarse random grid the smooth part of each picture is interpolated from. */
const GRID = 40;

/** Deterministic per seed (xorshift32), so every file has its own pixels and checksum. */
function random(seed: number) {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
}

/** Smooth colour fields with fine grain, as a photo is: it compresses to 3–5 MB at quality 90. */
function photoPixels(seed: number): Buffer {
  const next = random(seed);
  const grid = Array.from({ length: (GRID + 1) * (GRID + 1) * 3 }, () => next() & 0xff);
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    const gy = (y / HEIGHT) * GRID;
    const row = Math.floor(gy);
    const fy = gy - row;
    for (let x = 0; x < WIDTH; x++) {
      const gx = (x / WIDTH) * GRID;
      const col = Math.floor(gx);
      const fx = gx - col;
      const grain = next();
      for (let c = 0; c < 3; c++) {
        const topLeft = (row * (GRID + 1) + col) * 3 + c;
        const bottomLeft = topLeft + (GRID + 1) * 3;
        const top = grid[topLeft]! + (grid[topLeft + 3]! - grid[topLeft]!) * fx;
        const bottom = grid[bottomLeft]! + (grid[bottomLeft + 3]! - grid[bottomLeft]!) * fx;
        const value = top + (bottom - top) * fy + (((grain >>> (c * 8)) & 31) - 16);
        pixels[(y * WIDTH + x) * 3 + c] = Math.max(0, Math.min(255, value));
      }
    }
  }
  return pixels;
}

/** `count` distinct photo-like 12-megapixel JPEGs (3–5 MB each at quality 90) written to `dir`. */
export async function generatePhotos(dir: string, count: number): Promise<ImageFile[]> {
  const started = performance.now();
  const files: ImageFile[] = [];
  for (let i = 0; i < count; i++) {
    const name = `photo-${String(i).padStart(3, '0')}.jpg`;
    files.push(await writeJpeg(join(dir, name), photoPixels(i + 1), WIDTH, HEIGHT, 90));
  }
  const total = files.reduce((sum, file) => sum + file.size, 0);
  log(
    `  ${count} × ${WIDTH}×${HEIGHT} JPEG, ${fmt(total / MB)} MB in all ` +
      `(${fmt(total / count / MB, 2)} MB each), generated in ${fmt((performance.now() - started) / 1000)} s`,
  );
  return files;
}
