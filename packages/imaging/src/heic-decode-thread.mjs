// The HEIC decode, run by piscina in a worker thread (heic-decoder.ts): libheif's WASM HEVC decoder is
// synchronous and takes about half a second per photo. Plain JavaScript so that the thread loads as it is
// under vitest, `node --import tsx` and the bundled service alike.
import { readFile } from 'node:fs/promises';
import { threadId } from 'node:worker_threads';
import libheif from 'libheif-js/wasm-bundle.js';
import sharp from 'sharp';

sharp.cache(false);

// libheif reports why it failed only through console.log; this thread runs one task at a time, so the last
// message is the one of the running task and becomes its refusal's detail instead of a stray log line.
let libheifSaid = '';
console.log = (...parts) => {
  libheifSaid = parts.join(' ').split('\n', 1)[0];
};

/** libheif converts the decoded primary image to interleaved RGBA (its transforms applied); null on failure. */
function decodeRgba(image, width, height) {
  return new Promise((resolve) => {
    image.display({ data: new Uint8ClampedArray(width * height * 4), width, height }, (decoded) =>
      resolve(decoded?.data ?? null),
    );
  });
}

/**
 * Decodes the primary image of the HEIC at `path`. Refused (`{ refused }`) when libheif cannot read it, when
 * its dimensions exceed `maxPixels` (checked before decoding) or when the decode fails. With `maxEdge`, the
 * pixels come back reduced to that long edge (RGB, or RGBA when the image has alpha); without, only the size.
 *
 * @param {{ path: string, maxPixels?: number, pixels?: { maxEdge?: number } }} task
 */
export default async function decodeHeic({ path, maxPixels = Number.POSITIVE_INFINITY, pixels }) {
  const decoder = new libheif.HeifDecoder();
  let images = [];
  libheifSaid = '';
  try {
    images = decoder.decode(await readFile(path));
    const primary = images.find((image) => image.is_primary()) ?? images[0];
    if (!primary) return { refused: libheifSaid || 'libheif finds no image in the file' };
    const width = primary.get_width();
    const height = primary.get_height();
    if (width * height > maxPixels) {
      return { refused: `${width}×${height} is ${width * height} pixels, over the limit of ${maxPixels}` };
    }
    const rgba = await decodeRgba(primary, width, height);
    if (!rgba) return { refused: libheifSaid || 'libheif could not decode the primary image' };
    if (!pixels) return { width, height, threadId };
    const channels = primary.has_alpha_channel() ? 4 : 3;
    let image = sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), {
      raw: { width, height, channels: 4 },
    });
    if (channels === 3) image = image.removeAlpha();
    if (pixels.maxEdge) {
      image = image.resize({ width: pixels.maxEdge, height: pixels.maxEdge, fit: 'inside', withoutEnlargement: true });
    }
    const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, channels, data, threadId };
  } finally {
    for (const image of images) image.free();
    if (decoder.decoder) libheif.heif_context_free(decoder.decoder);
  }
}
