import { type ImageFormat, type ImageMetadata, isRawFormat, type RawFormat } from '@renamer/contracts';
import sharp, { type Metadata } from 'sharp';
import { ANIMATED_FORMATS, decodeEveryBlock } from './decode-every-block';
import { decodeHeicInPool } from './heic-decoder';
import { toImageMetadata, toRawMetadata } from './image-metadata';
import { FORMAT_OF_TYPE, isImageMimeType } from './image-types';
import { withRawPreview } from './raw-preview';
import { checkSingleFormat, type SingleFormatRefusal } from './single-format-check';

export type SafetyRefusal =
  | 'unsupported_type'
  | 'unreadable'
  | 'too_many_pixels'
  | 'format_mismatch'
  | SingleFormatRefusal
  | 'decode_failed'
  | 'no_usable_preview';

export type SafetyResult = { ok: true; metadata: ImageMetadata } | { ok: false; reason: SafetyRefusal; detail: string };

export interface SafetyOptions {
  /** The type `sniffImageType` found in the file's first bytes. */
  sniffedMime: string;
  maxPixels: number;
}

const refuse = (reason: SafetyRefusal, detail: string): SafetyResult => ({ ok: false, reason, detail });

function describe(error: unknown, path: string): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0]!.replaceAll(path, '<file>');
}

function framesOf(header: Metadata): number {
  return ANIMATED_FORMATS.has(header.format ?? '') ? (header.pages ?? 1) : 1;
}

/** Every block of the primary image decoded; HEIC in the decode pool, off the event loop. */
async function decodeFully(path: string, metadata: ImageMetadata, maxPixels: number): Promise<string | undefined> {
  if (metadata.format === 'heic') {
    const decoded = await decodeHeicInPool({ path, maxPixels });
    return 'refused' in decoded ? decoded.refused : undefined;
  }
  try {
    await decodeEveryBlock(path, metadata, maxPixels);
    return undefined;
  } catch (error) {
    return describe(error, path);
  }
}

/** The checks of a format sharp reads the header of: every accepted format but camera RAW. */
async function inspectDecodable(path: string, format: ImageFormat, maxPixels: number): Promise<SafetyResult> {
  let header: Metadata;
  try {
    // sharp's own default limit would throw here; we want the typed refusal below with our limit.
    header = await sharp(path, { limitInputPixels: false }).metadata();
  } catch (error) {
    return refuse('unreadable', describe(error, path));
  }
  const { width, height } = header;
  if (!width || !height) return refuse('unreadable', 'the header gives no dimensions');
  const frames = framesOf(header);
  const pixels = width * height * frames;
  if (pixels > maxPixels) {
    const size = `${width}×${height}${frames > 1 ? `×${frames} frames` : ''}`;
    return refuse('too_many_pixels', `${size} is ${pixels} pixels, over the limit of ${maxPixels}`);
  }

  const metadata = toImageMetadata(header);
  if (metadata?.format !== format) {
    return refuse('format_mismatch', `sniffed ${format}, but the decoder reads ${header.format ?? 'nothing'}`);
  }

  const singleFormat = await checkSingleFormat(path, metadata.format);
  if (!singleFormat.ok) return singleFormat;

  const decodeFailure = await decodeFully(path, metadata, maxPixels);
  if (decodeFailure) return refuse('decode_failed', decodeFailure);
  return { ok: true, metadata: singleFormat.motionPhoto ? { ...metadata, motionPhoto: true } : metadata };
}

/**
 * A camera RAW: the whole file gets the active-content scan (its sensor data is not decoded), and its
 * embedded JPEG preview, which analysis and previews use, every check of a JPEG.
 */
async function inspectRaw(path: string, format: RawFormat, maxPixels: number): Promise<SafetyResult> {
  const scan = await checkSingleFormat(path, format);
  if (!scan.ok) return scan;
  const name = format.toUpperCase();
  try {
    return await withRawPreview(path, async ({ previewPath, facts }) => {
      if (!previewPath) return refuse('no_usable_preview', `the ${name} file carries no embedded JPEG preview`);
      const preview = await inspectDecodable(previewPath, 'jpeg', maxPixels);
      if (!preview.ok) {
        return refuse('no_usable_preview', `the ${name} file has no usable JPEG preview (${preview.detail})`);
      }
      return { ok: true, metadata: toRawMetadata(format, preview.metadata, facts) };
    });
  } catch (error) {
    return refuse('unreadable', `ExifTool cannot read the ${name} file: ${describe(error, path)}`);
  }
}

/**
 * The upload safety check, cheapest step first: header dimensions against the pixel limit (before
 * any decoding, so a decompression bomb costs nothing), the decoder's format against the sniffed
 * type, one streaming pass for trailing data and embedded active content, then a full decode. A camera
 * RAW is checked through its embedded preview (see `inspectRaw`).
 */
export async function inspectImageSafety(
  path: string,
  { sniffedMime, maxPixels }: SafetyOptions,
): Promise<SafetyResult> {
  if (!Number.isSafeInteger(maxPixels) || maxPixels < 1) throw new RangeError('maxPixels must be a positive integer');
  if (!isImageMimeType(sniffedMime)) return refuse('unsupported_type', `${sniffedMime} is not an allowed type`);
  const format = FORMAT_OF_TYPE[sniffedMime];
  return isRawFormat(format) ? inspectRaw(path, format, maxPixels) : inspectDecodable(path, format, maxPixels);
}
