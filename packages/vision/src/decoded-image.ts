import sharp, { type Sharp } from 'sharp';

/**
 * Raw sRGB pixels, three channels (alpha flattened onto white, greyscale expanded), upright (EXIF orientation
 * applied), at most `ANALYSIS_EDGE_PX` on the long edge. Every analysis step reads these pixels.
 */
export interface DecodedImage {
  pixels: Buffer;
  width: number;
  height: number;
  channels: 3;
}

/**
 * The one decode of an image: upright, 8-bit sRGB (CMYK, 16-bit, greyscale and ICC profiles converted), at most
 * `ANALYSIS_EDGE_PX` on the long edge, its alpha kept. The analysis pixels and the preview are both made from it.
 */
export interface UprightPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** Large enough for text and object detection; each step scales down from here for its own model. */
export const ANALYSIS_EDGE_PX = 1024;

/**
 * Decodes an image opened upright (`openUprightImage` of `@renamer/imaging`, or sharp's `rotate()`), with
 * shrink-on-load where the format has it, so a large photo is never held at full size.
 */
export async function decodeUpright(image: Sharp): Promise<UprightPixels> {
  const { data, info } = await image
    .resize({ width: ANALYSIS_EDGE_PX, height: ANALYSIS_EDGE_PX, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3 && info.channels !== 4) {
    throw new Error(`expected 3 or 4 channels after decoding, got ${info.channels}`);
  }
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** White under transparent areas: dropping alpha instead would expose whatever colour they happen to hold. */
const FLATTEN_ONTO = { r: 255, g: 255, b: 255 };

/** The analysis pixels of a decoded image: its alpha flattened onto white. */
export async function analysisPixels(upright: UprightPixels): Promise<DecodedImage> {
  const { data, width, height, channels } = upright;
  if (channels === 3) return { pixels: data, width, height, channels };
  const flat = await sharp(data, { raw: { width, height, channels } })
    .flatten({ background: FLATTEN_ONTO })
    .raw()
    .toBuffer();
  return { pixels: flat, width, height, channels: 3 };
}

/** The analysis pixels of a file sharp reads by itself (the ordinary formats), as the vision tests use them. */
export async function decodeImage(path: string): Promise<DecodedImage> {
  return analysisPixels(await decodeUpright(sharp(path).rotate()));
}
