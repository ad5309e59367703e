import { IMAGE_FORMATS, type ImageFormat } from '@renamer/contracts';

interface SharpFormatFacts {
  format?: string;
  compression?: string;
}

/**
 * The format of a file as sharp's header reading reports it: HEIF holds AVIF (AV1) or HEIC (HEVC). Camera RAW
 * files are never reported here: sharp sees only the small TIFF thumbnail in some of them.
 */
export function imageFormatOf({ format, compression }: SharpFormatFacts): ImageFormat | undefined {
  if (format === 'heif') return compression === 'av1' ? 'avif' : compression === 'hevc' ? 'heic' : undefined;
  return IMAGE_FORMATS.find((known) => known === format);
}
