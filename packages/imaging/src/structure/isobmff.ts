import type { ByteReader } from '../byte-reader';
import { MalformedImageError } from './malformed-image-error';

const isFourCc = (type: Buffer) => type.every((byte) => byte >= 0x20 && byte <= 0x7e);

/**
 * Consumes the top-level boxes of an ISO-BMFF file (AVIF) for as long as the next bytes look like
 * a box header; whatever follows is left for the caller to judge as trailing data.
 */
export async function walkIsobmff(reader: ByteReader): Promise<void> {
  const first = await reader.peek(8);
  if (first.toString('latin1', 4, 8) !== 'ftyp') throw new MalformedImageError('the ftyp box is missing');
  for (;;) {
    const header = await reader.peek(8);
    if (header.length < 8 || !isFourCc(header.subarray(4, 8))) return;
    const size = header.readUInt32BE(0);
    if (size === 0) {
      await reader.drain(() => undefined);
      return;
    }
    if (size === 1) {
      const largeHeader = await reader.bytes(16);
      const largeSize = largeHeader.readBigUInt64BE(8);
      if (largeSize < 16n || largeSize > BigInt(Number.MAX_SAFE_INTEGER)) {
        throw new MalformedImageError('an ISO-BMFF box with an impossible size');
      }
      await reader.skip(Number(largeSize) - 16);
    } else if (size < 8) {
      return;
    } else {
      await reader.skip(size);
    }
  }
}
