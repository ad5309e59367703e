import type { ImageFormat } from '@renamer/contracts';
import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes `sniffImageType` needs: file-type's recommended sample size. */
export const SNIFF_HEAD_BYTES = 4100;

export const ALLOWED_IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
] as const;
export type AllowedImageType = (typeof ALLOWED_IMAGE_TYPES)[number];

export function isAllowedImageType(mime: string): mime is AllowedImageType {
  return (ALLOWED_IMAGE_TYPES as readonly string[]).includes(mime);
}

/** The format each allowed type is decoded as. */
export const FORMAT_OF_TYPE: Readonly<Record<AllowedImageType, ImageFormat>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/tiff': 'tiff',
};

export interface SniffedType {
  mime: string;
  ext: string;
}

/**
 * The type the leading bytes prove, whatever it is (the caller decides with `isAllowedImageType`);
 * undefined when no signature matches, as for text, HTML and SVG. An animated PNG counts as a PNG:
 * it is one, and older decoders show its first frame.
 */
export async function sniffImageType(head: Buffer): Promise<SniffedType | undefined> {
  const sniffed = await fileTypeFromBuffer(head);
  if (!sniffed) return undefined;
  if (sniffed.mime === 'image/apng') return { mime: 'image/png', ext: 'png' };
  return { mime: sniffed.mime, ext: sniffed.ext };
}
