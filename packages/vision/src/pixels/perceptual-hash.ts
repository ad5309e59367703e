import type { DecodedImage } from '../decoded-image';
import { shrinkThumbnail, thumbnailOf } from './thumbnail';

const HASH_COLUMNS = 8;
const HASH_ROWS = 8;

/**
 * A 64-bit difference hash (dHash) as 16 lowercase hex characters: the picture's thumbnail box-filtered to
 * 9 × 8 grey pixels, one bit per horizontal neighbour pair (set when the left one is brighter). Resizing and re-encoding
 * barely move the 72 block means, so copies of one picture land a few bits apart; see the domain's `NEAR_DUPLICATE_DISTANCE`.
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
