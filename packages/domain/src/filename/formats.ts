/** Image formats as sniffed from the file's magic bytes; the only ones accepted for upload. */
export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** The extension a renamed file gets: always from its real format, never from what anyone typed. */
export const FILE_EXTENSIONS: Readonly<Record<ImageFormat, string>> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  avif: 'avif',
  tiff: 'tif',
};

export function isImageFormat(value: string): value is ImageFormat {
  return (IMAGE_FORMATS as readonly string[]).includes(value);
}
