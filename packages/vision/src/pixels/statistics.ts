import { COLOUR_NAMES, type ColourName, colourIndexOf } from './colour-names';
import type { HsvPlanes } from './hsv';

/** Every figure the colour and scene words are decided from; shares are of the pixels of the named region. */
export interface PixelStatistics {
  /** Share of the frame per colour name (chromatic pixels only: neither dark nor grey). */
  colourShares: Record<ColourName, number>;
  /** Mean luma of the frame, 0..1. */
  meanLuma: number;
  /** Luma spread of the frame: the 95th minus the 5th percentile, 0..1. */
  lumaSpread: number;
  meanSaturation: number;
  /** Share of the frame darker than a night scene's shadows (value < 0.2). */
  darkShare: number;
  /** Mean absolute luma step between neighbours over the frame (texture), 0..1. */
  texture: number;
  /** Top third: share of sky blue (hue 190–250°, some saturation, bright). */
  topSkyBlueShare: number;
  /**
   * Top third: share of deep blue too dark for `topSkyBlueShare` (hue 200–260°, saturation ≥ 0.35, value 0.12–0.45):
   * a sky at dusk or twilight.
   */
  topDuskBlueShare: number;
  /** Top third: share of bright near-neutral pixels (white or light grey: clouds, overcast). */
  topWhiteShare: number;
  /** Top third: mean absolute luma step between neighbours. */
  topTexture: number;
  /** Top third: mean luma. */
  topLuma: number;
  /** Top two thirds: share of warm, saturated, lit pixels (red, orange, yellow, pink of a low sun). */
  upperWarmShare: number;
  /** Share of the frame that is leaf or grass green. */
  greenShare: number;
  /** Share of the frame in the saturated orange, rust and gold of autumn leaves. */
  autumnShare: number;
  /** Upper two thirds: share of the frame blown out to white (a light source: the sun, a lamp). */
  upperGlareShare: number;
  /** Bottom third: mean luma (a backlit foreground is dark). */
  bottomLuma: number;
  /** Bottom half: share of bright near-neutral pixels with a little shading (snow, not blown-out white). */
  lowerSnowShare: number;
  /** Bottom third: mean absolute luma step between neighbours (ground has texture; sky and still water little). */
  bottomTexture: number;
  /**
   * Bottom third: share of blue and violet (hue 190–300°, saturation ≥ 0.15, value ≥ 0.08), the colours a clear or
   * dusky sky gives the still water that mirrors it.
   */
  bottomBlueShare: number;
  /** Top and bottom thirds: share of leaf and grass green. */
  topGreenShare: number;
  bottomGreenShare: number;
  /**
   * How well the picture mirrors itself about a horizontal line between 30 % and 80 % of its height, as still water
   * mirrors the shore: the best correlation, over those lines, of each band's horizontal structure (each row minus
   * its own mean) with the band below flipped, -1..1. 0 where the bands hold too little structure to judge.
   */
  reflection: number;
  /**
   * Middle of the frame (60 % of each side): share of petal colours, saturated and lit: red, orange and yellow (hue
   * below 65°, saturation ≥ 0.5, value ≥ 0.5) or purple, violet and pink (hue from 260°, saturation ≥ 0.3, value
   * ≥ 0.4).
   */
  centrePetalShare: number;
  /** The frame outside that middle: share of leaf green or dark (value < 0.25) pixels, a flower's surroundings. */
  surroundGreenOrDarkShare: number;
  /** Share of the frame out of focus (`defocusedShare`), measured on the decoded image rather than the thumbnail. */
  defocusedShare: number;
}

const LUMA_BINS = 256;

/** The luma below which a share `p` of the pixels lies, read from a 256-bin histogram. */
function percentile(histogram: Uint32Array, total: number, p: number): number {
  let seen = 0;
  for (let bin = 0; bin < LUMA_BINS; bin++) {
    seen += histogram[bin]!;
    if (seen > p * total) return bin / (LUMA_BINS - 1);
  }
  return 1;
}

export function measurePixels(planes: HsvPlanes, defocusedShare: number): PixelStatistics {
  const { width, height, hue, saturation, value, luma } = planes;
  const size = width * height;
  const topRows = Math.max(1, Math.round(height / 3));
  const upperRows = Math.max(1, Math.round((2 * height) / 3));
  const lowerStart = Math.floor(height / 2);

  const colourCounts = new Float64Array(COLOUR_NAMES.length);
  const lumaHistogram = new Uint32Array(LUMA_BINS);
  let lumaSum = 0;
  let saturationSum = 0;
  let dark = 0;
  let textureSum = 0;
  let textureCount = 0;
  let topSkyBlue = 0;
  let topWhite = 0;
  let topTextureSum = 0;
  let topTextureCount = 0;
  let topLumaSum = 0;
  let upperWarm = 0;
  let green = 0;
  let autumn = 0;
  let lowerSnow = 0;
  let upperGlare = 0;
  let bottomLumaSum = 0;
  let bottomTextureSum = 0;
  let bottomTextureCount = 0;
  let bottomBlue = 0;
  let topGreen = 0;
  let bottomGreen = 0;
  let topDuskBlue = 0;
  let centre = 0;
  let centrePetal = 0;
  let surroundGreenOrDark = 0;
  const centreLeft = width * 0.2;
  const centreRight = width * 0.8;
  const centreTop = height * 0.2;
  const centreBottom = height * 0.8;
  const bottomStart = height - topRows;

  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const h = hue[i]!;
      const s = saturation[i]!;
      const v = value[i]!;
      const l = luma[i]!;
      lumaSum += l;
      lumaHistogram[Math.round(l * (LUMA_BINS - 1))]! += 1;
      saturationSum += s;
      if (v < 0.2) dark++;
      const colour = colourIndexOf(h, s, v);
      if (colour >= 0) colourCounts[colour]! += 1;
      let step = 0;
      let steps = 0;
      if (x + 1 < width) {
        step += Math.abs(luma[i + 1]! - l);
        steps++;
      }
      if (y + 1 < height) {
        step += Math.abs(luma[i + width]! - l);
        steps++;
      }
      textureSum += step;
      textureCount += steps;
      if (y < topRows) {
        topLumaSum += l;
        topTextureSum += step;
        topTextureCount += steps;
        if (h >= 190 && h < 250 && s >= 0.15 && v >= 0.45) topSkyBlue++;
        if (v >= 0.75 && s < 0.15) topWhite++;
        if (h >= 200 && h < 260 && s >= 0.35 && v >= 0.12 && v < 0.45) topDuskBlue++;
      }
      if (y < upperRows && l >= 0.95) upperGlare++;
      if (y >= bottomStart) {
        bottomLumaSum += l;
        bottomTextureSum += step;
        bottomTextureCount += steps;
        if (h >= 190 && h < 300 && s >= 0.15 && v >= 0.08) bottomBlue++;
      }
      if (y < upperRows && (h < 50 || h >= 330) && s >= 0.35 && v >= 0.3) upperWarm++;
      const isGreen = h >= 65 && h < 165 && s >= 0.2 && v >= 0.2;
      if (x >= centreLeft && x < centreRight && y >= centreTop && y < centreBottom) {
        centre++;
        if ((h < 65 && s >= 0.5 && v >= 0.5) || (h >= 260 && s >= 0.3 && v >= 0.4)) centrePetal++;
      } else if (isGreen || v < 0.25) surroundGreenOrDark++;
      if (isGreen) {
        green++;
        if (y < topRows) topGreen++;
        if (y >= bottomStart) bottomGreen++;
      }
      if (h >= 10 && h < 50 && s >= 0.45 && v >= 0.25) autumn++;
      if (y >= lowerStart && v >= 0.7 && v < 0.98 && s < 0.12) lowerSnow++;
    }
  }

  const colourShares = Object.fromEntries(COLOUR_NAMES.map((name, i) => [name, colourCounts[i]! / size])) as Record<
    ColourName,
    number
  >;
  return {
    colourShares,
    meanLuma: lumaSum / size,
    lumaSpread: percentile(lumaHistogram, size, 0.95) - percentile(lumaHistogram, size, 0.05),
    meanSaturation: saturationSum / size,
    darkShare: dark / size,
    texture: textureSum / Math.max(1, textureCount),
    topSkyBlueShare: topSkyBlue / (topRows * width),
    topDuskBlueShare: topDuskBlue / (topRows * width),
    topWhiteShare: topWhite / (topRows * width),
    topTexture: topTextureSum / Math.max(1, topTextureCount),
    topLuma: topLumaSum / (topRows * width),
    upperWarmShare: upperWarm / (upperRows * width),
    greenShare: green / size,
    autumnShare: autumn / size,
    upperGlareShare: upperGlare / size,
    bottomLuma: bottomLumaSum / (topRows * width),
    lowerSnowShare: lowerSnow / ((height - lowerStart) * width),
    bottomTexture: bottomTextureSum / Math.max(1, bottomTextureCount),
    bottomBlueShare: bottomBlue / (topRows * width),
    topGreenShare: topGreen / (topRows * width),
    bottomGreenShare: bottomGreen / (topRows * width),
    reflection: mirroring(luma, width, height),
    centrePetalShare: centrePetal / Math.max(1, centre),
    surroundGreenOrDarkShare: surroundGreenOrDark / Math.max(1, size - centre),
    defocusedShare,
  };
}

/** Below this mean squared horizontal structure per pixel a band is too plain to tell a reflection from chance. */
const MIN_STRUCTURE = 0.0004;

/** `PixelStatistics.reflection`: bands of up to a fifth of the height on each side of every candidate horizon. */
function mirroring(luma: Float32Array, width: number, height: number): number {
  const rowMeans = new Float64Array(height);
  for (let y = 0; y < height; y++) {
    let sum = 0;
    for (let x = 0; x < width; x++) sum += luma[y * width + x]!;
    rowMeans[y] = sum / width;
  }
  let best = 0;
  for (let horizon = Math.round(height * 0.3); horizon <= Math.round(height * 0.8); horizon++) {
    const band = Math.min(horizon, height - horizon - 1, Math.round(height * 0.2));
    if (band < 3) continue;
    let both = 0;
    let above = 0;
    let below = 0;
    for (let k = 1; k <= band; k++) {
      const up = (horizon - k) * width;
      const down = (horizon + k) * width;
      for (let x = 0; x < width; x++) {
        const a = luma[up + x]! - rowMeans[horizon - k]!;
        const b = luma[down + x]! - rowMeans[horizon + k]!;
        both += a * b;
        above += a * a;
        below += b * b;
      }
    }
    const pixels = band * width;
    if (above / pixels < MIN_STRUCTURE || below / pixels < MIN_STRUCTURE) continue;
    best = Math.max(best, both / Math.sqrt(above * below));
  }
  return best;
}
