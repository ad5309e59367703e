import { IMAGE_FORMATS, type ImageFormat } from '@renamer/contracts';

interface SharpFormatFacts {
  format?: string;
  compression?: string;
}

/** sharp reports AVIF as `heif` with AV1 compression; other HEIF (HEIC) is not one of ours. */
export function imageFormatOf({ format, compression }: SharpFormatFacts): ImageFormat | undefined {
  if (format === 'heif') return compression === 'av1' ? 'avif' : undefined;
  return IMAGE_FORMATS.find((known) => known === format);
}
