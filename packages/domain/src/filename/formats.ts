import type { ImageFormat } from '@renamer/contracts';

/** The extension a renamed file gets: always from its real format, never from what anyone typed. */
export const FILE_EXTENSIONS: Readonly<Record<ImageFormat, string>> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  avif: 'avif',
  tiff: 'tif',
  heic: 'heic',
  dng: 'dng',
  cr2: 'cr2',
  cr3: 'cr3',
  nef: 'nef',
  arw: 'arw',
  orf: 'orf',
  raf: 'raf',
  rw2: 'rw2',
};

/** Formats by the extensions people type, the usual spellings included. */
const TYPED_EXTENSIONS: Readonly<Record<string, ImageFormat>> = {
  ...Object.fromEntries(Object.entries(FILE_EXTENSIONS).map(([format, extension]) => [extension, format])),
  jpeg: 'jpeg',
  jpe: 'jpeg',
  jfif: 'jpeg',
  tiff: 'tiff',
  heif: 'heic',
};

/** The format a typed name's extension stands for, when it names one. */
export function formatOfTypedName(name: string): ImageFormat | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return extension ? TYPED_EXTENSIONS[extension] : undefined;
}
