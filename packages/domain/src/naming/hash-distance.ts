/** A 64-bit perceptual hash (dHash) as 16 hex digits, as the analyser writes it. */
const PERCEPTUAL_HASH = /^[0-9a-f]{16}$/i;

export function isPerceptualHash(value: string | null | undefined): value is string {
  return typeof value === 'string' && PERCEPTUAL_HASH.test(value);
}

/** The Hamming distance of two 64-bit hashes: how many of their bits differ (0 … 64). */
export function hashDistance(a: string, b: string): number {
  if (!isPerceptualHash(a) || !isPerceptualHash(b)) {
    throw new RangeError('A perceptual hash is 16 hex digits (64 bits).');
  }
  let distance = 0;
  // Two 32-bit halves: bitwise operators work on 32-bit integers.
  for (const offset of [0, 8]) {
    let differing = Number.parseInt(a.slice(offset, offset + 8), 16) ^ Number.parseInt(b.slice(offset, offset + 8), 16);
    while (differing !== 0) {
      differing &= differing - 1;
      distance++;
    }
  }
  return distance;
}
