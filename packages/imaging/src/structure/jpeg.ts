import type { ByteReader } from '../byte-reader';
import { MalformedImageError } from './malformed-image-error';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP1 = 0xe1;
const TEM = 0x01;
const STUFFED_ZERO = 0x00;

const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;
const standsAlone = (marker: number) => marker === TEM || isRestart(marker);

/**
 * Consumes one JPEG from SOI to its EOI by following segment lengths and the entropy-coded data
 * after each SOS, so an EOI inside an EXIF thumbnail or a comment does not end the image early.
 * `visitApp1` is handed each APP1 segment's payload (EXIF, XMP: at most 64 KiB each) as the walk passes it.
 */
export async function walkJpeg(reader: ByteReader, visitApp1?: (payload: Buffer) => void): Promise<void> {
  if ((await reader.u8()) !== 0xff || (await reader.u8()) !== SOI) {
    throw new MalformedImageError('the JPEG does not start with SOI');
  }
  let marker = await readMarker(reader);
  while (marker !== EOI) {
    if (marker === SOI) throw new MalformedImageError('a JPEG SOI marker inside the image');
    if (!standsAlone(marker)) {
      const length = await reader.u16be();
      if (length < 2) throw new MalformedImageError('a JPEG segment with an impossible length');
      if (marker === APP1 && visitApp1) visitApp1(await reader.bytes(length - 2));
      else await reader.skip(length - 2);
    }
    marker = marker === SOS ? await skipEntropyCodedData(reader) : await readMarker(reader);
  }
}

// Like libjpeg, stray bytes before a marker are tolerated (it only warns about them).
async function readMarker(reader: ByteReader): Promise<number> {
  await reader.skipUntil(0xff);
  return readMarkerCode(reader);
}

async function readMarkerCode(reader: ByteReader): Promise<number> {
  let code = await reader.u8();
  while (code === 0xff) code = await reader.u8();
  return code;
}

/** Returns the marker that ends the scan; stuffed zeros and restart markers belong to the scan. */
async function skipEntropyCodedData(reader: ByteReader): Promise<number> {
  await reader.seek(findScanEnd);
  return readMarkerCode(reader);
}

/** The 0xFF that starts the marker ending the scan, past any fill bytes; not found if the bytes end first. */
function findScanEnd(bytes: Buffer, from: number): { at: number; found: boolean } {
  for (let at = bytes.indexOf(0xff, from); at !== -1; ) {
    let code = at + 1;
    while (code < bytes.length && bytes[code] === 0xff) code += 1;
    if (code === bytes.length) return { at, found: false };
    if (bytes[code] !== STUFFED_ZERO && !isRestart(bytes[code]!)) return { at, found: true };
    at = bytes.indexOf(0xff, code + 1);
  }
  return { at: bytes.length, found: false };
}
