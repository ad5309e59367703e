/** A 64-bit perceptual hash (dHash) as 16 hex digits, as the analyser writes it. */
const PERCEPTUAL_HASH = /^[0-9a-f]{16}$/i;

/** A 64-bit hash as two 32-bit halves: bitwise operators work on 32-bit integers. */
export type HashBits = readonly [number, number];

export function isPerceptualHash(value: string | null | undefined): value is string {
  return typeof value === 'string' && PERCEPTUAL_HASH.test(value);
}

export function hashBits(hash: string): HashBits {
  if (!isPerceptualHash(hash)) throw new RangeError('A perceptual hash is 16 hex digits (64 bits).');
  return [Number.parseInt(hash.slice(0, 8), 16), Number.parseInt(hash.slice(8), 16)];
}

/** How many bits differ between two hashes (0 … 64). */
export function bitDistance(a: HashBits, b: HashBits): number {
  return setBits(a[0] ^ b[0]) + setBits(a[1] ^ b[1]);
}

/** The Hamming distance of two 64-bit hashes written as 16 hex digits: how many of their bits differ. */
export function hashDistance(a: string, b: string): number {
  return bitDistance(hashBits(a), hashBits(b));
}

function setBits(value: number): number {
  let bits = value;
  let count = 0;
  while (bits !== 0) {
    bits &= bits - 1;
    count++;
  }
  return count;
}
