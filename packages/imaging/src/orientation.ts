import type { Sharp } from 'sharp';

/**
 * EXIF orientation (1–8) as explicit operations, for pixels whose own metadata does not carry the right one
 * (a RAW's preview: the RAW's EXIF counts). sharp mirrors before it rotates, so a mirrored orientation's
 * rotation is given the other way round.
 */
const OPERATIONS: Readonly<Record<number, { flop: boolean; angle: number }>> = {
  1: { flop: false, angle: 0 },
  2: { flop: true, angle: 0 },
  3: { flop: false, angle: 180 },
  4: { flop: true, angle: 180 },
  5: { flop: true, angle: 270 },
  6: { flop: false, angle: 90 },
  7: { flop: true, angle: 90 },
  8: { flop: false, angle: 270 },
};

export function applyOrientation(image: Sharp, orientation: number | undefined): Sharp {
  const { flop, angle } = OPERATIONS[orientation ?? 1] ?? OPERATIONS[1]!;
  if (flop) image.flop();
  return angle ? image.rotate(angle) : image;
}
