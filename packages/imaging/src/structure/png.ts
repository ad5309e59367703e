import type { ByteReader } from '../byte-reader';
import { MalformedImageError } from './malformed-image-error';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_CHUNK_LENGTH = 0x7fffffff;
const CRC_LENGTH = 4;

const isChunkType = (type: Buffer) =>
  type.every((byte) => (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a));

/** Consumes one PNG (or APNG) from its signature to the CRC of IEND. */
export async function walkPng(reader: ByteReader): Promise<void> {
  if (!(await reader.bytes(SIGNATURE.length)).equals(SIGNATURE)) {
    throw new MalformedImageError('the PNG signature is missing');
  }
  for (;;) {
    const length = await reader.u32be();
    const type = await reader.bytes(4);
    if (length > MAX_CHUNK_LENGTH || !isChunkType(type)) {
      throw new MalformedImageError('a PNG chunk with an invalid length or type');
    }
    await reader.skip(length + CRC_LENGTH);
    if (type.toString('latin1') === 'IEND') return;
  }
}
