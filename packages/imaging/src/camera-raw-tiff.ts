import { type SniffedType, sniffedAs } from './sniffed-type';

const TAG_MAKE = 0x010f;
const TAG_SUB_IFDS = 0x014a;
const TAG_DNG_VERSION = 0xc612;
const TAG_SONY_SR2_PRIVATE = 0xc634;
const TYPE_ASCII = 2;
const ENTRY_BYTES = 12;

interface FirstIfd {
  tags: Set<number>;
  make: string;
}

/** The tags of IFD0 and its Make, as far as they lie within the head; undefined when IFD0 is beyond it. */
function readFirstIfd(head: Buffer): FirstIfd | undefined {
  if (head.length < 8) return undefined;
  const order = head.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return undefined;
  const little = order === 'II';
  const u16 = (at: number) => (little ? head.readUInt16LE(at) : head.readUInt16BE(at));
  const u32 = (at: number) => (little ? head.readUInt32LE(at) : head.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > head.length) return undefined;
  const count = u16(ifd);
  const tags = new Set<number>();
  let make = '';
  for (let index = 0; index < count; index++) {
    const entry = ifd + 2 + index * ENTRY_BYTES;
    if (entry + ENTRY_BYTES > head.length) break;
    const tag = u16(entry);
    tags.add(tag);
    if (tag === TAG_MAKE && u16(entry + 2) === TYPE_ASCII) {
      const length = u32(entry + 4);
      const at = length <= 4 ? entry + 8 : u32(entry + 8);
      if (at + length <= head.length) make = head.toString('latin1', at, at + length).replace(/\0.*$/s, '');
    }
  }
  return { tags, make: make.trim().toUpperCase() };
}

/**
 * A NEF, an ARW or a DNG that file-type reports as a plain TIFF. A camera RAW keeps the sensor data in
 * sub-IFDs (IFD0 holds a small preview), which a TIFF written by a camera, a scanner or an editor does
 * not; so a Nikon or Sony Make alone does not make a RAW of a TIFF. undefined: a TIFF after all.
 */
export function cameraRawInTiff(head: Buffer): SniffedType | undefined {
  const ifd = readFirstIfd(head);
  if (!ifd) return undefined;
  if (ifd.tags.has(TAG_DNG_VERSION)) return sniffedAs('dng');
  const hasSubIfds = ifd.tags.has(TAG_SUB_IFDS);
  if (ifd.make.startsWith('NIKON') && hasSubIfds) return sniffedAs('nef');
  if (ifd.make.startsWith('SONY') && (hasSubIfds || ifd.tags.has(TAG_SONY_SR2_PRIVATE))) {
    return sniffedAs('arw');
  }
  return undefined;
}
