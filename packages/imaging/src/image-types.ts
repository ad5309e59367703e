import type { ImageFormat } from '@renamer/contracts';
import { fileTypeFromBuffer } from 'file-type';
import { cameraRawInTiff } from './camera-raw-tiff';
import { brandedIsobmffType } from './isobmff-brands';

/** How many leading bytes `sniffImageType` needs: file-type's recommended sample size. */
export const SNIFF_HEAD_BYTES = 4100;

/** The type each camera RAW format is stored and reported as (the usual names; there is no registered one). */
export const RAW_IMAGE_TYPES = [
  'image/x-adobe-dng',
  'image/x-canon-cr2',
  'image/x-canon-cr3',
  'image/x-nikon-nef',
  'image/x-sony-arw',
  'image/x-olympus-orf',
  'image/x-fujifilm-raf',
  'image/x-panasonic-rw2',
] as const;

export const ALLOWED_IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
  'image/heic',
  'image/heif',
  ...RAW_IMAGE_TYPES,
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
  'image/heic': 'heic',
  'image/heif': 'heic',
  'image/x-adobe-dng': 'dng',
  'image/x-canon-cr2': 'cr2',
  'image/x-canon-cr3': 'cr3',
  'image/x-nikon-nef': 'nef',
  'image/x-sony-arw': 'arw',
  'image/x-olympus-orf': 'orf',
  'image/x-fujifilm-raf': 'raf',
  'image/x-panasonic-rw2': 'rw2',
};

const TIFF_HEADERS = [Buffer.from('II*\0', 'latin1'), Buffer.from('MM\0*', 'latin1')];
const isTiffHeader = (head: Buffer) => TIFF_HEADERS.some((header) => head.subarray(0, 4).equals(header));

export interface SniffedType {
  mime: string;
  ext: string;
}

/**
 * The type the leading bytes prove, whatever it is (the caller decides with `isAllowedImageType`);
 * undefined when no signature matches, as for text, HTML and SVG. An animated PNG counts as a PNG:
 * it is one, and older decoders show its first frame. A TIFF is looked at once more, because a NEF or
 * an ARW is a TIFF too; an ISO-BMFF file by its compatible brands as well, because its major brand
 * alone can leave an AVIF looking like HEIF.
 */
export async function sniffImageType(head: Buffer): Promise<SniffedType | undefined> {
  const sniffed = await fileTypeFromBuffer(head);
  // file-type follows a TIFF's IFD0 offset and gives up when it lies beyond the head, as it does in the
  // TIFFs libvips and many other writers make (IFD0 after the pixels): the TIFF header alone decides then.
  if (!sniffed) return isTiffHeader(head) ? { mime: 'image/tiff', ext: 'tif' } : undefined;
  if (sniffed.mime === 'image/apng') return { mime: 'image/png', ext: 'png' };
  if (sniffed.mime === 'image/tiff') return cameraRawInTiff(head) ?? { mime: sniffed.mime, ext: sniffed.ext };
  if (sniffed.mime === 'image/heif' || sniffed.mime === 'image/heic') return brandedIsobmffType(head) ?? sniffed;
  return { mime: sniffed.mime, ext: sniffed.ext };
}
