import type { DecodedImage } from '@renamer/vision';
import sharp from 'sharp';

/** Enough for a vision model to see what a picture shows (OpenAI's low detail is 512 px), small to send. */
export const LLM_IMAGE_EDGE_PX = 512;
const JPEG_QUALITY = 80;

/** The decoded pixels as a JPEG of at most 512 px on the long edge. Raw input carries no metadata to strip. */
export function smallJpeg(image: DecodedImage): Promise<Buffer> {
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .resize({ width: LLM_IMAGE_EDGE_PX, height: LLM_IMAGE_EDGE_PX, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: JPEG_QUALITY })
    .toBuffer();
}
