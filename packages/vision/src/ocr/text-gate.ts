import type { DecodedImage } from '../decoded-image';

/** Side of the square cells the gate judges, in pixels of the half-size grey copy. */
const CELL_PX = 24;
/** A step in grey (0..255) across two pixels this large is an edge of a letter's stroke. */
const EDGE_STEP = 48;
/** Two opposite edges at most this far apart (half-size pixels) bound one stroke. */
const MAX_STROKE_PX = 8;
/** Grey steps below this between neighbours count as flat (paper, card, sky). */
const FLAT_STEP = 6;

/** A cell is text-like when its horizontal scan lines cross this many stems each (letters side by side)… */
const MIN_STEMS_PER_LINE = 1.6;
/** …this share of its scan lines cross a stroke at all… */
const MIN_STROKE_LINE_SHARE = 0.4;
/** …and this share of it is flat (the paper or sign between the letters). */
const MIN_FLAT_SHARE = 0.35;
/** A line of text spans at least this many text-like cells side by side; texture makes isolated ones. */
const MIN_CELLS_IN_A_ROW = 2;

/** What the gate measures in each cell, row by row. */
interface TextCellStatistics {
  columns: number;
  rows: number;
  /** Strokes crossed by the horizontal scan lines (vertical stems), per line that crosses any. */
  stemsPerLine: Float32Array;
  /** Share of the cell's scan lines, both directions, that cross a stroke. */
  strokeLineShare: Float32Array;
  /** Share of pixels with flat surroundings (the paper between letters). */
  flatShare: Float32Array;
}

interface GreyImage {
  grey: Float32Array;
  width: number;
  height: number;
}

/** Grey at half size (2 × 2 box means), 0..255. */
function halfSizeGrey(image: DecodedImage): GreyImage {
  const width = image.width >> 1;
  const height = image.height >> 1;
  const grey = new Float32Array(width * height);
  const { pixels } = image;
  const stride = image.width * 3;
  for (let y = 0; y < height; y++) {
    let top = 2 * y * stride;
    let bottom = top + stride;
    for (let x = 0; x < width; x++, top += 6, bottom += 6) {
      const red = pixels[top]! + pixels[top + 3]! + pixels[bottom]! + pixels[bottom + 3]!;
      const green = pixels[top + 1]! + pixels[top + 4]! + pixels[bottom + 1]! + pixels[bottom + 4]!;
      const blue = pixels[top + 2]! + pixels[top + 5]! + pixels[bottom + 2]! + pixels[bottom + 5]!;
      grey[y * width + x] = (0.299 * red + 0.587 * green + 0.114 * blue) / 4;
    }
  }
  return { grey, width, height };
}

/**
 * Walks one scan line and counts strokes per cell: a strong step one way followed within `MAX_STROKE_PX` by a
 * strong step back, the profile of a letter's stem crossed at right angles. `cellOfStep` maps a position on
 * the line to its cell; `lines` gathers, per cell, the lines that crossed a stroke there, and `strokes` (when
 * given) the strokes.
 */
function scanLine(
  grey: Float32Array,
  start: number,
  step: number,
  length: number,
  cellOfStep: Int32Array,
  lineOffset: number,
  lines: Float32Array,
  strokes?: Float32Array,
): void {
  let lastSign = 0;
  let lastAt = 0;
  let previousCell = -1;
  for (let i = 0; i + 2 < length; i++) {
    const delta = grey[start + (i + 2) * step]! - grey[start + i * step]!;
    if (delta < EDGE_STEP && delta > -EDGE_STEP) continue;
    const sign = delta > 0 ? 1 : -1;
    if (lastSign === -sign && i - lastAt <= MAX_STROKE_PX) {
      const cell = lineOffset + cellOfStep[lastAt]!;
      if (strokes) strokes[cell]! += 1;
      if (cell !== previousCell) lines[cell]! += 1;
      previousCell = cell;
      lastSign = 0;
      i += 1;
      continue;
    }
    lastSign = sign;
    lastAt = i;
  }
}

function cellIndexes(length: number, cells: number): Int32Array {
  const indexes = new Int32Array(length);
  for (let i = 0; i < length; i++) indexes[i] = Math.min(cells - 1, Math.floor(i / CELL_PX));
  return indexes;
}

/** Measures every cell of the half-size grey copy; `mayHoldText` judges the figures. */
function measureTextCells(image: DecodedImage): TextCellStatistics {
  const { grey, width, height } = halfSizeGrey(image);
  const columns = Math.max(1, Math.floor(width / CELL_PX));
  const rows = Math.max(1, Math.floor(height / CELL_PX));
  const cellCount = columns * rows;
  const columnOf = cellIndexes(width, columns);
  const rowOf = cellIndexes(height, rows);
  const stems = new Float32Array(cellCount);
  const stemLines = new Float32Array(cellCount);
  const barLinesByColumnMajor = new Float32Array(cellCount);
  for (let y = 0; y < height; y++) {
    scanLine(grey, y * width, 1, width, columnOf, rowOf[y]! * columns, stemLines, stems);
  }
  // Vertical lines (crossing the letters' bars) gather per column first, cells indexed column-major.
  for (let x = 0; x < width; x++) {
    scanLine(grey, x, width, height, rowOf, columnOf[x]! * rows, barLinesByColumnMajor);
  }
  const barLines = new Float32Array(cellCount);
  for (let column = 0; column < columns; column++) {
    for (let row = 0; row < rows; row++) {
      barLines[row * columns + column] = barLinesByColumnMajor[column * rows + row]!;
    }
  }
  const flat = new Float32Array(cellCount);
  for (let y = 1; y < height - 1; y++) {
    const rowStart = rowOf[y]! * columns;
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const centre = grey[i]!;
      if (
        Math.abs(grey[i + 1]! - centre) < FLAT_STEP &&
        Math.abs(grey[i - 1]! - centre) < FLAT_STEP &&
        Math.abs(grey[i + width]! - centre) < FLAT_STEP &&
        Math.abs(grey[i - width]! - centre) < FLAT_STEP
      ) {
        flat[rowStart + columnOf[x]!]! += 1;
      }
    }
  }
  const cellWidth = (column: number) => (column === columns - 1 ? width - column * CELL_PX : CELL_PX);
  const cellHeight = (row: number) => (row === rows - 1 ? height - row * CELL_PX : CELL_PX);
  const stemsPerLine = new Float32Array(cellCount);
  const strokeLineShare = new Float32Array(cellCount);
  const flatShare = new Float32Array(cellCount);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const c = row * columns + column;
      const w = cellWidth(column);
      const h = cellHeight(row);
      stemsPerLine[c] = stemLines[c]! > 0 ? stems[c]! / stemLines[c]! : 0;
      strokeLineShare[c] = (stemLines[c]! + barLines[c]!) / (w + h);
      flatShare[c] = flat[c]! / (w * h);
    }
  }
  return { columns, rows, stemsPerLine, strokeLineShare, flatShare };
}

/**
 * The cheap text-region test: whether the picture seems to hold a line of print worth reading with OCR, that is a
 * run of at least `MIN_CELLS_IN_A_ROW` text-like cells side by side (see `measureTextCells`). Says no to most
 * photographs; 5–10 ms on a 1024-px image.
 */
export function mayHoldText(image: DecodedImage): boolean {
  const cells = measureTextCells(image);
  for (let row = 0; row < cells.rows; row++) {
    let run = 0;
    for (let column = 0; column < cells.columns; column++) {
      const i = row * cells.columns + column;
      const textLike =
        cells.stemsPerLine[i]! >= MIN_STEMS_PER_LINE &&
        cells.strokeLineShare[i]! >= MIN_STROKE_LINE_SHARE &&
        cells.flatShare[i]! >= MIN_FLAT_SHARE;
      run = textLike ? run + 1 : 0;
      if (run >= MIN_CELLS_IN_A_ROW) return true;
    }
  }
  return false;
}
