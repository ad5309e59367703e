import type { ByteReader } from '../byte-reader';
import { MalformedImageError } from './malformed-image-error';

const FORM_TYPE_LENGTH = 4;

/** Consumes one WebP: the RIFF header says how many bytes follow it. */
export async function walkWebp(reader: ByteReader): Promise<void> {
  const header = await reader.bytes(12);
  const riffSize = header.readUInt32LE(4);
  if (header.toString('latin1', 0, 4) !== 'RIFF' || header.toString('latin1', 8, 12) !== 'WEBP') {
    throw new MalformedImageError('the WebP RIFF header is missing');
  }
  if (riffSize < FORM_TYPE_LENGTH) throw new MalformedImageError('the WebP RIFF size is impossible');
  await reader.skip(riffSize - FORM_TYPE_LENGTH);
}
