import type { DecodedImage } from '../decoded-image';
import { shrinkThumbnail, thumbnailOf } from './thumbnail';

/**
 * Hashes at most this far apart are near-duplicates: one picture resized, re-encoded or lightly edited. Measured on
 * the 22 fixture photographs: copies at 640 px (JPEG q60), 300 px (WebP q50) and 1600 px 15 % brighter land 0–5
 * bits away; unrelated photographs 10 and more (10 and 13 between two dusky lakes and a sunset, whose smooth
 * gradients hash alike; median 32). 5 % crops land 0–17 away: a crop is a shot of the same subject at best, told
 * by shared tags, not by this distance. See the README, "Colours and scene".
 */
export const NEAR_DUPLICATE_DISTANCE = 6;

const HASH_COLUMNS = 8;
const HASH_ROWS = 8;

/**
 * A 64-bit difference hash (dHash) as 16 lowercase hex characters: the picture's thumbnail box-filtered to
 * 9 × 8 grey pixels, one bit per horizontal neighbour pair (set when the left one is brighter). Resizing and re-encoding
 * barely move the 72 block means, so copies of one picture land a few bits apart; see `NEAR_DUPLICATE_DISTANCE`.
 */
export function perceptualHash(image: DecodedImage): string {
  const { r, g, b } = shrinkThumbnail(thumbnailOf(image), HASH_COLUMNS + 1, HASH_ROWS);
  const grey = (i: number) => 0.299 * r[i]! + 0.587 * g[i]! + 0.114 * b[i]!;
  let hex = '';
  for (let y = 0; y < HASH_ROWS; y++) {
    let byte = 0;
    for (let x = 0; x < HASH_COLUMNS; x++) {
      const i = y * (HASH_COLUMNS + 1) + x;
      byte = (byte << 1) | (grey(i) > grey(i + 1) ? 1 : 0);
    }
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

/** The number of bits in which two perceptual hashes differ (0..64). */
export function hashDistance(a: string, b: string): number {
  if (!/^[0-9a-f]{16}$/.test(a) || !/^[0-9a-f]{16}$/.test(b)) {
    throw new Error(`perceptual hashes are 16 lowercase hex characters: got "${a}" and "${b}"`);
  }
  let distance = 0;
  for (let i = 0; i < 16; i += 2) {
    let bits = Number.parseInt(a.slice(i, i + 2), 16) ^ Number.parseInt(b.slice(i, i + 2), 16);
    while (bits) {
      distance += bits & 1;
      bits >>= 1;
    }
  }
  return distance;
}
