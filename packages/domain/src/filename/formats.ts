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
