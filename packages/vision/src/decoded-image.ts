import sharp from 'sharp';

/**
 * Raw sRGB pixels, three channels (alpha dropped, greyscale expanded), upright (EXIF orientation applied), at
 * most `ANALYSIS_EDGE_PX` on the long edge. Decoded once per image; every analysis step reads these pixels.
 */
export interface DecodedImage {
  pixels: Buffer;
  width: number;
  height: number;
  channels: 3;
}

/** Large enough for text and object detection; each step scales down from here for its own model. */
export const ANALYSIS_EDGE_PX = 1024;

/** Decodes with shrink-on-load (JPEG, WebP), so a large photo is never held at full size. */
export async function decodeImage(path: string): Promise<DecodedImage> {
  const { data, info } = await sharp(path)
    .rotate()
    .resize({ width: ANALYSIS_EDGE_PX, height: ANALYSIS_EDGE_PX, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 channels after decoding, got ${info.channels}`);
  return { pixels: data, width: info.width, height: info.height, channels: 3 };
}
