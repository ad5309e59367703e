import { IMAGE_FORMAT_ENTRIES, type ImageFormat, type ImageMimeType } from '@renamer/contracts';
import { fileTypeFromBuffer } from 'file-type';
import { cameraRawInTiff } from './camera-raw-tiff';
import { brandedIsobmffType } from './isobmff-brands';
import { type SniffedType, sniffedAs } from './sniffed-type';

export type { SniffedType } from './sniffed-type';

/** How many leading bytes `sniffImageType` needs: file-type's recommended sample size. */
export const SNIFF_HEAD_BYTES = 4100;

/** Every type an accepted format's bytes are sniffed as, in the format table's order (`IMAGE_FORMAT_TABLE`). */
export const ALLOWED_IMAGE_TYPES = IMAGE_FORMAT_ENTRIES.flatMap(
  ([, facts]) => facts.mimeTypes,
) as readonly ImageMimeType[];

/** The types camera RAW is stored and reported as (the usual names; there is no registered one). */
export const RAW_IMAGE_TYPES = IMAGE_FORMAT_ENTRIES.flatMap(([, facts]) =>
  facts.cameraRaw ? facts.mimeTypes : [],
) as readonly ImageMimeType[];

/** The format each allowed type is decoded as. */
export const FORMAT_OF_TYPE = Object.fromEntries(
  IMAGE_FORMAT_ENTRIES.flatMap(([format, facts]) => facts.mimeTypes.map((mime) => [mime, format])),
) as Readonly<Record<ImageMimeType, ImageFormat>>;

export function isImageMimeType(mime: string): mime is ImageMimeType {
  return Object.hasOwn(FORMAT_OF_TYPE, mime);
}

const TIFF_HEADERS = [Buffer.from('II*\0', 'latin1'), Buffer.from('MM\0*', 'latin1')];
const isTiffHeader = (head: Buffer) => TIFF_HEADERS.some((header) => head.subarray(0, 4).equals(header));

/**
 * The type the leading bytes prove, whatever it is (the caller decides with `isImageMimeType`);
 * undefined when no signature matches, as for text, HTML and SVG. An animated PNG counts as a PNG:
 * it is one, and older decoders show its first frame. A TIFF is looked at once more, because a NEF or
 * an ARW is a TIFF too; an ISO-BMFF file by its compatible brands as well, because its major brand
 * alone can leave an AVIF looking like HEIF.
 */
export async function sniffImageType(head: Buffer): Promise<SniffedType | undefined> {
  const sniffed = await fileTypeFromBuffer(head);
  // file-type follows a TIFF's IFD0 offset and gives up when it lies beyond the head, as it does in the
  // TIFFs libvips and many other writers make (IFD0 after the pixels): the TIFF header alone decides then.
  if (!sniffed) return isTiffHeader(head) ? sniffedAs('tiff') : undefined;
  if (sniffed.mime === 'image/apng') return sniffedAs('png');
  const format = isImageMimeType(sniffed.mime) ? FORMAT_OF_TYPE[sniffed.mime] : undefined;
  if (format === 'tiff') return cameraRawInTiff(head) ?? { mime: sniffed.mime, ext: sniffed.ext };
  if (format === 'heic') return brandedIsobmffType(head) ?? sniffed;
  return { mime: sniffed.mime, ext: sniffed.ext };
}
