import type { TrailerExplanation } from './motion-photo';

/**
 * Samsung's SEFT trailer (Motion Photos, "Sound & Shot", …), as ExifTool's `Samsung.pm` reads it. All
 * little-endian. Data blocks come first, each `00 00`, its type (u16), its name's length (u32), its name
 * (`MotionPhoto_Data`) and its data; then the directory: `SEFH`, a version (u32), an entry count (u32),
 * and per entry `00 00`, the type (u16), how far the block starts before the directory (u32) and the
 * block's size (u32); then the directory's size (u32) and `SEFT` end the file.
 */

/** ExifTool reads no SEFH directory of 64 KiB or more, and neither do we: the tail we keep holds the largest. */
export const SEFT_TAIL_BYTES = 0x10000 + 8;
const MOTION_PHOTO_DATA = 0x0a30;
const SEFH_HEADER_BYTES = 12;
const SEFH_ENTRY_BYTES = 12;
const BLOCK_HEADER_BYTES = 8;

/**
 * Whether a SEFT trailer fills exactly the bytes from `start` to the end of the file: its blocks, laid end
 * to end from `start`, then its directory. `tail` is the trailer's last bytes, `end` the file's size. A
 * trailer without the `SEFT` footer is not declared at all (no `why`).
 */
export function checkSeftTrailer(tail: Buffer, start: number, end: number): TrailerExplanation {
  if (tail.length < 8 || tail.toString('latin1', tail.length - 4) !== 'SEFT') return { accounted: false };
  const directoryBytes = tail.readUInt32LE(tail.length - 8);
  if (directoryBytes + 8 > tail.length || directoryBytes < SEFH_HEADER_BYTES) {
    return { accounted: false, why: 'the Samsung SEFT trailer gives an impossible directory size' };
  }
  const directory = tail.subarray(tail.length - 8 - directoryBytes, tail.length - 8);
  const count = directory.readUInt32LE(8);
  if (directory.toString('latin1', 0, 4) !== 'SEFH' || SEFH_HEADER_BYTES + SEFH_ENTRY_BYTES * count > directoryBytes) {
    return { accounted: false, why: 'the Samsung SEFT trailer has no readable SEFH directory' };
  }
  const directoryStart = end - 8 - directoryBytes;
  const blocks = Array.from({ length: count }, (_, index) => {
    const entry = SEFH_HEADER_BYTES + SEFH_ENTRY_BYTES * index;
    const before = directory.readUInt32LE(entry + 4);
    return {
      type: directory.readUInt16LE(entry + 2),
      start: directoryStart - before,
      size: directory.readUInt32LE(entry + 8),
    };
  }).sort((a, b) => a.start - b.start);

  let at = start;
  for (const block of blocks) {
    if (block.start !== at || block.size < BLOCK_HEADER_BYTES) {
      return { accounted: false, why: 'the Samsung SEFT directory does not account for every byte after the image' };
    }
    at += block.size;
  }
  if (at !== directoryStart) {
    const declared = directoryStart - start;
    return {
      accounted: false,
      why: `the Samsung SEFT directory declares ${at - start} bytes of data after the image, but ${declared} are there`,
    };
  }
  return { accounted: true, motionPhoto: blocks.some((block) => block.type === MOTION_PHOTO_DATA) };
}
