import type { ByteReader } from '../byte-reader';
import { MalformedImageError } from './malformed-image-error';

const EXTENSION = 0x21;
const IMAGE_DESCRIPTOR = 0x2c;
const TRAILER = 0x3b;
const HAS_COLOR_TABLE = 0x80;

const colorTableLength = (packed: number) => (packed & HAS_COLOR_TABLE ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/** Consumes one GIF from its header to the 0x3B trailer, block by block. */
export async function walkGif(reader: ByteReader): Promise<void> {
  const version = (await reader.bytes(6)).toString('latin1');
  if (version !== 'GIF87a' && version !== 'GIF89a') throw new MalformedImageError('the GIF header is missing');
  const screenDescriptor = await reader.bytes(7);
  await reader.skip(colorTableLength(screenDescriptor[4]!));
  for (;;) {
    const introducer = await reader.u8();
    if (introducer === TRAILER) return;
    if (introducer === EXTENSION) {
      await reader.u8();
    } else if (introducer === IMAGE_DESCRIPTOR) {
      const descriptor = await reader.bytes(9);
      await reader.skip(colorTableLength(descriptor[8]!) + 1);
    } else {
      throw new MalformedImageError('an unknown GIF block');
    }
    await skipSubBlocks(reader);
  }
}

async function skipSubBlocks(reader: ByteReader): Promise<void> {
  for (let size = await reader.u8(); size !== 0; size = await reader.u8()) await reader.skip(size);
}
