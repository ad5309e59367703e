import {
  IMAGE_FORMATS_IN_WORDS,
  type ImageFormat,
  type ImageMetadata,
  isRawFormat,
  type RawFormat,
} from '@renamer/contracts';
import sharp, { type Metadata } from 'sharp';
import { imageFormatOf } from './image-format';
import { type RawFacts, withRawPreview } from './raw-preview';
import { safeExifFrom } from './safe-exif';

export class UnsupportedImageError extends Error {}

/**
 * Builds our metadata from sharp's header metadata; undefined for formats we do not accept. A HEIC has no
 * orientation to apply: libheif applies its own rotation and mirroring, which its EXIF only repeats.
 */
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
    ...(metadata.orientation !== undefined && format !== 'heic' && { orientation: metadata.orientation }),
    ...(metadata.pages !== undefined && metadata.pages > 1 && { pages: metadata.pages }),
    ...(exif && { exif }),
  };
}

/**
 * A RAW file's metadata: the dimensions are those of its embedded preview (the pixels analysis and previews
 * see, before the orientation is applied), everything else is the RAW's own EXIF.
 */
export function toRawMetadata(format: RawFormat, preview: ImageMetadata, facts: RawFacts): ImageMetadata {
  return {
    width: preview.width,
    height: preview.height,
    format,
    hasAlpha: false,
    ...(facts.orientation !== undefined && { orientation: facts.orientation }),
    ...(facts.exif && { exif: facts.exif }),
  };
}

async function readRawMetadata(path: string, format: RawFormat): Promise<ImageMetadata> {
  return withRawPreview(path, async ({ previewPath, facts }) => {
    // A stub or corrupt preview is no preview: sharp's own error would not say which file it means.
    const header = previewPath
      ? await sharp(previewPath)
          .metadata()
          .catch(() => undefined)
      : undefined;
    const preview = header && toImageMetadata(header);
    if (!preview) throw new UnsupportedImageError(`the ${format.toUpperCase()} file carries no readable JPEG preview`);
    return toRawMetadata(format, preview, facts);
  });
}

/**
 * Reads headers only (no pixel decoding); throws UnsupportedImageError for anything but our formats. A camera
 * RAW needs its `format` (the image's stored one): its metadata comes from ExifTool and its embedded preview.
 */
export async function readImageMetadata(path: string, format?: ImageFormat): Promise<ImageMetadata> {
  if (format && isRawFormat(format)) return readRawMetadata(path, format);
  const metadata = toImageMetadata(await sharp(path).metadata());
  if (!metadata) {
    throw new UnsupportedImageError(`not a ${IMAGE_FORMATS_IN_WORDS.pictures} image with dimensions`);
  }
  return metadata;
}
