import type { ImageFormat } from '@renamer/contracts';
import type { Sharp } from 'sharp';
import { openUprightImage } from './upright-image';

/** What a reviewing person sees of an image: WebP, this many pixels on the long side at most, never enlarged. */
export const PREVIEW_EDGE_PX = 512;
export const PREVIEW_CONTENT_TYPE = 'image/webp';
const PREVIEW_QUALITY = 80;

/**
 * Encodes an upright image as its preview: sRGB, alpha kept, no metadata (sharp writes none unless asked,
 * so neither EXIF nor GPS nor the ICC profile reach it).
 */
export function encodePreview(image: Sharp): Promise<Buffer> {
  return image
    .resize({ width: PREVIEW_EDGE_PX, height: PREVIEW_EDGE_PX, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .webp({ quality: PREVIEW_QUALITY })
    .toBuffer();
}

/** The preview of a stored file, decoded for it alone: for an image the analysis has not previewed. */
export async function previewOfFile(path: string, format: ImageFormat): Promise<Buffer> {
  const opened = await openUprightImage(path, format, { maxEdge: PREVIEW_EDGE_PX });
  try {
    return await encodePreview(opened.image);
  } finally {
    await opened.release();
  }
}
