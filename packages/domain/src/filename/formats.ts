import { IMAGE_FORMAT_ENTRIES, type ImageFormat } from '@renamer/contracts';

/** The extension a renamed file gets: always from its real format, never from what anyone typed (the table's first). */
export const FILE_EXTENSIONS = Object.fromEntries(
  IMAGE_FORMAT_ENTRIES.map(([format, { extensions }]) => [format, extensions[0]]),
) as Readonly<Record<ImageFormat, string>>;

/** Formats by the extensions people type, the usual spellings included (`jpe`, `jfif`, `heif`). */
const TYPED_EXTENSIONS: ReadonlyMap<string, ImageFormat> = new Map(
  IMAGE_FORMAT_ENTRIES.flatMap(([format, { extensions }]) =>
    extensions.map((extension) => [extension, format] as const),
  ),
);

/** The format a typed name's extension stands for, when it names one. */
export function formatOfTypedName(name: string): ImageFormat | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return extension ? TYPED_EXTENSIONS.get(extension) : undefined;
}
