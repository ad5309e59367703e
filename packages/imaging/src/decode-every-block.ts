import type { ImageMetadata } from '@renamer/contracts';
import sharp from 'sharp';

// Frames of an animation share one canvas, so all of them are counted and decoded. Further pages of
// a TIFF or AVIF may differ in size and are neither decoded here nor used by the worker.
export const ANIMATED_FORMATS: ReadonlySet<string> = new Set(['gif', 'webp']);

/**
 * Decodes the whole image (every frame of an animation) and throws what the decoder refuses. A JPEG is
 * decoded at 1/8 scale (shrink-on-load): libjpeg still reads and Huffman-decodes every byte of every scan,
 * so it refuses exactly what a full-size decode refuses, for about two thirds of the time. Other formats
 * have no such reduced decode that still reads every byte, so an extract of the whole frame keeps sharp
 * from taking one.
 */
export async function decodeEveryBlock(path: string, metadata: ImageMetadata, maxPixels: number): Promise<void> {
  const image = sharp(path, {
    failOn: 'error',
    limitInputPixels: maxPixels,
    sequentialRead: true,
    pages: ANIMATED_FORMATS.has(metadata.format) ? -1 : 1,
  });
  if (metadata.format !== 'jpeg') image.extract({ left: 0, top: 0, width: metadata.width, height: metadata.height });
  await image.resize(8, 8, { fit: 'fill' }).raw().toBuffer();
}
