import type { ImageMetadata } from '@renamer/contracts';
import sharp, { type Metadata } from 'sharp';
import { imageFormatOf } from './image-format';
import { safeExifFrom } from './safe-exif';

export class UnsupportedImageError extends Error {}

/** Builds our metadata from sharp's header metadata; undefined for formats we do not accept. */
export function toImageMetadata(metadata: Metadata): ImageMetadata | undefined {
  const format = imageFormatOf(metadata);
  const { width, height } = metadata;
  if (!format || !width || !height) return undefined;
  const exif = safeExifFrom(metadata.exif);
  return {
    width,
    height,
    format,
    hasAlpha: metadata.hasAlpha,
    ...(metadata.orientation !== undefined && { orientation: metadata.orientation }),
    ...(metadata.pages !== undefined && metadata.pages > 1 && { pages: metadata.pages }),
    ...(exif && { exif }),
  };
}

/** Reads headers only (no pixel decoding); throws UnsupportedImageError for anything but our formats. */
export async function readImageMetadata(path: string): Promise<ImageMetadata> {
  const metadata = toImageMetadata(await sharp(path).metadata());
  if (!metadata) throw new UnsupportedImageError('not a JPEG, PNG, WebP, GIF, AVIF or TIFF image with dimensions');
  return metadata;
}
