import { open } from 'node:fs/promises';
import { IMAGE_FORMAT_TABLE, type ImageFormat, type SignatureFamily } from '@renamer/contracts';
import { ActiveContentScanner } from './active-content-scanner';
import { ByteReader, UnexpectedEndError } from './byte-reader';
import { DeclaredTrailerCheck, type JpegDeclarations } from './motion-photo';
import { type MotionPhotoXmp, readMotionPhotoXmp } from './motion-photo-xmp';
import { walkGif } from './structure/gif';
import { walkIsobmff } from './structure/isobmff';
import { walkJpeg } from './structure/jpeg';
import { MalformedImageError } from './structure/malformed-image-error';
import { walkPng } from './structure/png';
import { walkWebp } from './structure/webp';

/** Trailing bytes tolerated after the image's end, if each is one of PADDING_BYTES (see README). */
export const TRAILING_SLACK_BYTES = 16;
const PADDING_BYTES = new Set([0x00, 0xff, 0x0a, 0x0d, 0x20]);
// Large enough that per-chunk overhead stays small (64 KiB reads took three times as long), still flat.
const CHUNK_BYTES = 256 * 1024;

export type SingleFormatRefusal = 'truncated' | 'malformed' | 'trailing_data' | 'active_content';
export type SingleFormatResult =
  | { ok: true /** The JPEG carries the video its XMP or SEFT trailer declares. */; motionPhoto: boolean }
  | { ok: false; reason: SingleFormatRefusal; detail: string };

const JPEG_SOI = Buffer.from([0xff, 0xd8]);

/**
 * Camera files (MPF, Ultra HDR gain maps) put further complete JPEGs right after the first. The primary
 * image's XMP, passed on the way, may declare what follows them (a Motion Photo's video).
 */
async function walkJpegs(reader: ByteReader): Promise<JpegDeclarations> {
  let xmp: MotionPhotoXmp = {};
  await walkJpeg(reader, (payload) => {
    xmp = readMotionPhotoXmp(payload) ?? xmp;
  });
  const primaryEnd = reader.position;
  while ((await reader.peek(2)).equals(JPEG_SOI)) await walkJpeg(reader);
  return { primaryEnd, xmp };
}

/** Walks the image to its end and returns what the file declares about the bytes after it, if anything. */
type Walker = (reader: ByteReader) => Promise<JpegDeclarations | undefined>;

const declaringNothing =
  (walk: (reader: ByteReader) => Promise<void>): Walker =>
  async (reader) => {
    await walk(reader);
    return undefined;
  };

/**
 * The structure walk of each signature family (`IMAGE_FORMAT_TABLE`). TIFF and the TIFF-like RAW families are left
 * out: a TIFF's extent is the furthest of many IFD, strip and tile offsets (see README).
 */
const WALKERS: Readonly<Record<SignatureFamily, Walker | undefined>> = {
  jpeg: walkJpegs,
  png: declaringNothing(walkPng),
  gif: declaringNothing(walkGif),
  riff: declaringNothing(walkWebp),
  isobmff: declaringNothing(walkIsobmff),
  tiff: undefined,
  orf: undefined,
  rw2: undefined,
  raf: undefined,
};

/** A camera RAW's sensor data is not walked, whatever its container (a CR3 is ISO-BMFF): the scan reads it all. */
function walkerOf(format: ImageFormat): Walker | undefined {
  const { cameraRaw, signature } = IMAGE_FORMAT_TABLE[format];
  return cameraRaw ? undefined : WALKERS[signature];
}

type Trailing = { ok: true; motionPhoto: boolean } | { ok: false; detail: string };

/** The bytes after the image: padding within the slack, or a container the JPEG declares (see README). */
async function walkAndCheckTrailing(reader: ByteReader, walk: Walker): Promise<Trailing> {
  const declarations = await walk(reader);
  const imageEnd = reader.position;
  const declared = declarations ? new DeclaredTrailerCheck(declarations, imageEnd) : undefined;
  let bytes = 0;
  let withinSlack = true;
  await reader.drain((piece) => {
    bytes += piece.length;
    withinSlack &&= bytes <= TRAILING_SLACK_BYTES && piece.every((byte) => PADDING_BYTES.has(byte));
    declared?.push(piece);
  });
  if (withinSlack) return { ok: true, motionPhoto: false };
  return declared?.finish() ?? { ok: false, detail: `${bytes} bytes after the image ends at byte ${imageEnd}` };
}

/**
 * The file in chunks read into two buffers in turn, so a pass allocates 512 KiB whatever the file's size
 * (a stream would leave every chunk behind for the garbage collector: 3–4 MB per photo, which showed as
 * RSS growing with the number of files in a request). A chunk stays valid until the one after the next
 * is read: the reader and the scanner copy what they keep longer.
 */
async function* scanned(path: string, scanner: ActiveContentScanner): AsyncGenerator<Buffer> {
  const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)];
  const handle = await open(path, 'r');
  try {
    for (let turn = 0; ; turn ^= 1) {
      const { bytesRead } = await handle.read(buffers[turn]!, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return;
      const chunk = buffers[turn]!.subarray(0, bytesRead);
      scanner.push(chunk);
      yield chunk;
    }
  } finally {
    await handle.close();
  }
}

/**
 * One streaming pass over the file: it must end where its image structure ends (give or take the
 * slack), and must not carry markup, PHP, PDF or ZIP signatures anywhere.
 */
export async function checkSingleFormat(path: string, format: ImageFormat): Promise<SingleFormatResult> {
  const scanner = new ActiveContentScanner();
  const reader = new ByteReader(scanned(path, scanner));
  const walk = walkerOf(format);
  try {
    const trailing = walk ? await walkAndCheckTrailing(reader, walk) : await reader.drain(() => undefined);
    const finding = scanner.finish();
    if (finding) {
      return { ok: false, reason: 'active_content', detail: `${finding.kind} signature at byte ${finding.offset}` };
    }
    if (trailing && !trailing.ok) return { ok: false, reason: 'trailing_data', detail: trailing.detail };
    return { ok: true, motionPhoto: trailing?.motionPhoto ?? false };
  } catch (error) {
    if (error instanceof UnexpectedEndError) return { ok: false, reason: 'truncated', detail: error.message };
    if (error instanceof MalformedImageError) return { ok: false, reason: 'malformed', detail: error.message };
    throw error;
  } finally {
    await reader.close();
  }
}
