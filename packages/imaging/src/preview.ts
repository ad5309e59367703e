import type { ImageFormat, PreviewSize } from '@renamer/contracts';
import type { Sharp } from 'sharp';
import { openUprightImage } from './upright-image';

/**
 * What a reviewing person sees of an image: WebP, this many pixels on the long side at most, never enlarged.
 * `small` is what the review list shows (the worker makes it from the analysis's decode); `large` is for a
 * closer look, made on demand from the original (the analysis decodes at 1024 px, too small for it).
 */
export const PREVIEW_EDGES = { small: 512, large: 1600 } as const satisfies Record<PreviewSize, number>;
/** The small preview's long side. */
export const PREVIEW_EDGE_PX = PREVIEW_EDGES.small;
export const PREVIEW_CONTENT_TYPE = 'image/webp';
const PREVIEW_QUALITY = 80;

/**
 * Encodes an upright image as its preview of that size (small by default): sRGB, alpha kept, no metadata
 * (sharp writes none unless asked, so neither EXIF nor GPS nor the ICC profile reach it).
 */
export function encodePreview(image: Sharp, size: PreviewSize = 'small'): Promise<Buffer> {
  const edge = PREVIEW_EDGES[size];
  return image
    .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .webp({ quality: PREVIEW_QUALITY })
    .toBuffer();
}

/**
 * The preview of a stored file, decoded for it alone (decoders may stop at the preview's size): for an image
 * the analysis has not previewed, and for every large preview.
 */
export async function previewOfFile(path: string, format: ImageFormat, size: PreviewSize = 'small'): Promise<Buffer> {
  const opened = await openUprightImage(path, format, { maxEdge: PREVIEW_EDGES[size] });
  try {
    return await encodePreview(opened.image, size);
  } finally {
    await opened.release();
  }
}
