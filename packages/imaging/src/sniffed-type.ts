import { IMAGE_FORMAT_TABLE, type ImageFormat } from '@renamer/contracts';

/** A type proved by a file's leading bytes, with its usual extension. */
export interface SniffedType {
  mime: string;
  ext: string;
}

/** A format as the sniffer reports it: the table's first type and extension. */
export function sniffedAs(format: ImageFormat): SniffedType {
  const { mimeTypes, extensions } = IMAGE_FORMAT_TABLE[format];
  return { mime: mimeTypes[0], ext: extensions[0] };
}
