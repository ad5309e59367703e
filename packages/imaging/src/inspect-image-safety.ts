import type { ImageMetadata } from '@renamer/contracts';
import sharp, { type Metadata } from 'sharp';
import { ANIMATED_FORMATS, decodeEveryBlock } from './decode-every-block';
import { toImageMetadata } from './image-metadata';
import { FORMAT_OF_TYPE, isAllowedImageType } from './image-types';
import { checkSingleFormat, type SingleFormatRefusal } from './single-format-check';

export type SafetyRefusal =
  | 'unsupported_type'
  | 'unreadable'
  | 'too_many_pixels'
  | 'format_mismatch'
  | SingleFormatRefusal
  | 'decode_failed';

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

/**
 * The upload safety check, cheapest step first: header dimensions against the pixel limit (before
 * any decoding, so a decompression bomb costs nothing), the decoder's format against the sniffed
 * type, one streaming pass for trailing data and embedded active content, then a full decode.
 */
export async function inspectImageSafety(
  path: string,
  { sniffedMime, maxPixels }: SafetyOptions,
): Promise<SafetyResult> {
  if (!Number.isSafeInteger(maxPixels) || maxPixels < 1) throw new RangeError('maxPixels must be a positive integer');
  if (!isAllowedImageType(sniffedMime)) return refuse('unsupported_type', `${sniffedMime} is not an allowed type`);

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
  if (metadata?.format !== FORMAT_OF_TYPE[sniffedMime]) {
    return refuse('format_mismatch', `sniffed ${sniffedMime}, but the decoder reads ${header.format ?? 'nothing'}`);
  }

  const singleFormat = await checkSingleFormat(path, metadata.format);
  if (!singleFormat.ok) return singleFormat;

  try {
    await decodeEveryBlock(path, metadata, maxPixels);
  } catch (error) {
    return refuse('decode_failed', describe(error, path));
  }
  return { ok: true, metadata: singleFormat.motionPhoto ? { ...metadata, motionPhoto: true } : metadata };
}
