import type { DecodedImage } from '../decoded-image';

/** A small copy of the picture: `r`, `g`, `b` in 0..255 as floats, one entry per pixel, row by row. */
export interface Thumbnail {
  width: number;
  height: number;
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
}

/** Colours, light and the perceptual hash are all measured on a copy this small: none of them needs detail. */
const THUMBNAIL_EDGE_PX = 128;
/** Each thumbnail pixel averages at least this many samples across (and down) its block of the picture. */
const SAMPLES_ACROSS_A_BLOCK = 4;

const thumbnails = new WeakMap<DecodedImage, Thumbnail>();

/**
 * The picture box-filtered to `THUMBNAIL_EDGE_PX` on the long edge (never enlarged), made once per decoded image
 * and shared by the steps that read it. Each pixel is the mean of an evenly spaced grid of at least 4 × 4
 * samples of its block, which keeps a block's mean colour and costs a quarter of reading every pixel.
 */
export function thumbnailOf(image: DecodedImage): Thumbnail {
  let thumbnail = thumbnails.get(image);
  if (!thumbnail) {
    thumbnail = sampleThumbnail(image);
    thumbnails.set(image, thumbnail);
  }
  return thumbnail;
}

function sampleThumbnail(image: DecodedImage): Thumbnail {
  const { pixels, width: sourceWidth, height: sourceHeight } = image;
  const scale = Math.min(1, THUMBNAIL_EDGE_PX / Math.max(sourceWidth, sourceHeight));
  const width = Math.max(1, Math.round(sourceWidth * scale));
  const height = Math.max(1, Math.round(sourceHeight * scale));
  const step = Math.max(1, Math.floor(sourceWidth / width / SAMPLES_ACROSS_A_BLOCK));
  const size = width * height;
  const sumR = new Float32Array(size);
  const sumG = new Float32Array(size);
  const sumB = new Float32Array(size);
  const count = new Float32Array(size);
  for (let y = 0; y < sourceHeight; y += step) {
    const rowStart = Math.min(height - 1, Math.floor((y * height) / sourceHeight)) * width;
    for (let x = 0; x < sourceWidth; x += step) {
      const target = rowStart + Math.min(width - 1, Math.floor((x * width) / sourceWidth));
      const offset = (y * sourceWidth + x) * 3;
      sumR[target]! += pixels[offset]!;
      sumG[target]! += pixels[offset + 1]!;
      sumB[target]! += pixels[offset + 2]!;
      count[target]! += 1;
    }
  }
  return divide({ width, height, r: sumR, g: sumG, b: sumB }, count);
}

/** The thumbnail box-filtered further to exactly `width` × `height` (the aspect ratio may change). */
export function shrinkThumbnail(source: Thumbnail, width: number, height: number): Thumbnail {
  const size = width * height;
  const shrunk: Thumbnail = {
    width,
    height,
    r: new Float32Array(size),
    g: new Float32Array(size),
    b: new Float32Array(size),
  };
  const count = new Float32Array(size);
  for (let y = 0; y < source.height; y++) {
    const rowStart = Math.floor((y * height) / source.height) * width;
    for (let x = 0; x < source.width; x++) {
      const target = rowStart + Math.floor((x * width) / source.width);
      const i = y * source.width + x;
      shrunk.r[target]! += source.r[i]!;
      shrunk.g[target]! += source.g[i]!;
      shrunk.b[target]! += source.b[i]!;
      count[target]! += 1;
    }
  }
  return divide(shrunk, count);
}

function divide(sums: Thumbnail, count: Float32Array): Thumbnail {
  for (let i = 0; i < count.length; i++) {
    const n = Math.max(1, count[i]!);
    sums.r[i]! /= n;
    sums.g[i]! /= n;
    sums.b[i]! /= n;
  }
  return sums;
}
