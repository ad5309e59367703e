import type { DecodedImage } from '../decoded-image';

/** Focus is judged on a grey copy this large on the long edge: enough for fine detail, cheap to read. */
const FOCUS_EDGE_PX = 512;
/** The frame is cut into this many cells across and down. */
const CELLS = 8;
/** Below this luma standard deviation a cell is plain (sky, a wall): neither sharp nor blurred. */
const MIN_CELL_CONTRAST = 0.03;
/** A cell with contrast but fewer edges than this per unit of it is out of focus (a smooth gradient of bokeh). */
const DEFOCUSED_EDGES_PER_CONTRAST = 0.25;

/**
 * The share of the frame's cells that hold contrast but no fine detail: out of focus, as the background of a close-up
 * is. A sharp scene (a forest, a mountain) has none; a plain sky or wall is not counted either way.
 */
export function defocusedShare(image: DecodedImage): number {
  const { pixels, width: sourceWidth, height: sourceHeight } = image;
  const scale = Math.min(1, FOCUS_EDGE_PX / Math.max(sourceWidth, sourceHeight));
  const width = Math.max(2, Math.round(sourceWidth * scale));
  const height = Math.max(2, Math.round(sourceHeight * scale));
  const grey = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = Math.min(sourceHeight - 1, Math.floor((y + 0.5) / scale)) * sourceWidth;
    for (let x = 0; x < width; x++) {
      const offset = (row + Math.min(sourceWidth - 1, Math.floor((x + 0.5) / scale))) * 3;
      grey[y * width + x] = (0.299 * pixels[offset]! + 0.587 * pixels[offset + 1]! + 0.114 * pixels[offset + 2]!) / 255;
    }
  }
  const cells = CELLS * CELLS;
  const edges = new Float64Array(cells);
  const sums = new Float64Array(cells);
  const squares = new Float64Array(cells);
  const counts = new Float64Array(cells);
  for (let y = 0; y + 1 < height; y++) {
    const cellRow = Math.min(CELLS - 1, Math.floor((y * CELLS) / height)) * CELLS;
    for (let x = 0; x + 1 < width; x++) {
      const i = y * width + x;
      const cell = cellRow + Math.min(CELLS - 1, Math.floor((x * CELLS) / width));
      const value = grey[i]!;
      edges[cell]! += Math.abs(grey[i + 1]! - value) + Math.abs(grey[i + width]! - value);
      sums[cell]! += value;
      squares[cell]! += value * value;
      counts[cell]! += 1;
    }
  }
  let defocused = 0;
  for (let cell = 0; cell < cells; cell++) {
    const n = Math.max(1, counts[cell]!);
    const mean = sums[cell]! / n;
    const contrast = Math.sqrt(Math.max(0, squares[cell]! / n - mean * mean));
    if (contrast >= MIN_CELL_CONTRAST && edges[cell]! / n / contrast < DEFOCUSED_EDGES_PER_CONTRAST) defocused++;
  }
  return defocused / cells;
}
