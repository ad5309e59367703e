import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Deterministic pseudo-random bytes (xorshift32), so image data looks compressed yet tests repeat. */
export function noiseBytes(length: number, seed = 0x9e3779b9): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

export function noiseImage(width: number, height: number, channels: 3 | 4 = 3): sharp.Sharp {
  return sharp(noiseBytes(width * height * channels), { raw: { width, height, channels } });
}

export const makeJpeg = (width = 64, height = 48) => noiseImage(width, height).jpeg({ quality: 85 }).toBuffer();
export const makePng = (width = 64, height = 48) => noiseImage(width, height, 4).png().toBuffer();
export const makeWebp = () => noiseImage(64, 48).webp().toBuffer();
export const makeAvif = () => noiseImage(64, 48).avif().toBuffer();
export const makeTiff = () => noiseImage(64, 48).tiff().toBuffer();
export const makeGif = () => noiseImage(64, 48).gif().toBuffer();

export function makeAnimatedGif(frames: number, width = 20, height = 10): Promise<Buffer> {
  const frameBytes = width * height * 4;
  const pixels = Buffer.alloc(frameBytes * frames);
  for (let frame = 0; frame < frames; frame++) {
    pixels.fill((frame * 97) % 256, frame * frameBytes, (frame + 1) * frameBytes);
    pixels.fill(255, frame * frameBytes + 3, frame * frameBytes + 4);
  }
  return sharp(pixels, { raw: { width, height: height * frames, channels: 4, pageHeight: height } })
    .gif()
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A few hundred bytes that declare `width`×`height` pixels: a decompression bomb's header. */
export function makeDeclaredHugePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, adaptive filtering, no interlace
  const firstRows = deflateSync(Buffer.alloc(4 * (width + 1)));
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', firstRows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG with an acTL chunk before IDAT is what file-type calls an APNG. */
export async function makeApng(): Promise<Buffer> {
  const png = await makePng(8, 8);
  const afterHeader = PNG_SIGNATURE.length + 8 + 13 + 4;
  const animationControl = Buffer.alloc(8);
  animationControl.writeUInt32BE(1, 0);
  return Buffer.concat([png.subarray(0, afterHeader), pngChunk('acTL', animationControl), png.subarray(afterHeader)]);
}

/** Puts a COM segment right after SOI. */
export function withJpegComment(jpeg: Buffer, comment: string): Buffer {
  const text = Buffer.from(comment, 'latin1');
  const segment = Buffer.alloc(4);
  segment.set([0xff, 0xfe], 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)]);
}

/** A minimal stored-entry ZIP, as a polyglot would append. */
export function makeZip(name: string, content: string): Buffer {
  const fileName = Buffer.from(name, 'latin1');
  const data = Buffer.from(content, 'latin1');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralOffset = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

export const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
export const HTML = '<!doctype html>\n<html lang="en"><body><script>alert(1)</script></body></html>\n';

export interface Scratch {
  dir: string;
  write(name: string, bytes: Buffer | string): Promise<string>;
  remove(): Promise<void>;
}

export async function createScratch(): Promise<Scratch> {
  const dir = await mkdtemp(join(tmpdir(), 'imaging-test-'));
  return {
    dir,
    async write(name, bytes) {
      const path = join(dir, name);
      await writeFile(path, bytes);
      return path;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Real camera files (fixtures/camera, see its README). */
export const cameraFile = (name: string) => fileURLToPath(new URL(`../../../fixtures/camera/${name}`, import.meta.url));
export const photoFile = (name: string) => fileURLToPath(new URL(`../../../fixtures/photos/${name}`, import.meta.url));
