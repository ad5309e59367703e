import sharp from 'sharp';

/** Raw pixels, upright (EXIF orientation applied), at most `ANALYSIS_EDGE_PX` on the long edge. */
export interface DecodedImage {
  pixels: Buffer;
  width: number;
  height: number;
  channels: number;
}

/** Large enough for text and object detection; each step scales down from here for its own model. */
const ANALYSIS_EDGE_PX = 1024;

/** Decodes with shrink-on-load (JPEG, WebP), so a large photo is never held at full size. */
export async function decodeImage(path: string): Promise<DecodedImage> {
  const { data, info } = await sharp(path)
    .rotate()
    .resize({ width: ANALYSIS_EDGE_PX, height: ANALYSIS_EDGE_PX, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, channels: info.channels };
}
