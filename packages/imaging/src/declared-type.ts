import { IMAGE_FORMAT_ENTRIES, type ImageFormat } from '@renamer/contracts';

/** Each format's types and the other names clients declare it by (`image/jpg`, `image/heif`, `image/x-dng`). */
const FORMAT_OF_DECLARED: ReadonlyMap<string, ImageFormat> = new Map(
  IMAGE_FORMAT_ENTRIES.flatMap(([format, { mimeTypes, declaredAliases }]) =>
    [...mimeTypes, ...declaredAliases].map((type) => [type, format] as const),
  ),
);

const UNSPECIFIC = new Set(['', 'application/octet-stream']);

const essence = (mediaType: string): string => mediaType.split(';', 1)[0]!.trim().toLowerCase();

/**
 * Whether the client's declared Content-Type agrees with the sniffed one: both name the same format of the format
 * table, or are the same type. A missing, empty or `application/octet-stream` declaration agrees with anything:
 * curl, scripts and some browsers send exactly that for files they do not recognise, and it claims nothing that
 * could contradict the bytes, which were sniffed and are fully checked anyway.
 */
export function declaredTypeAgrees(declared: string | undefined, sniffed: string): boolean {
  if (declared === undefined) return true;
  const declaredEssence = essence(declared);
  if (UNSPECIFIC.has(declaredEssence)) return true;
  const sniffedEssence = essence(sniffed);
  const declaredFormat = FORMAT_OF_DECLARED.get(declaredEssence);
  const sniffedFormat = FORMAT_OF_DECLARED.get(sniffedEssence);
  return declaredFormat || sniffedFormat ? declaredFormat === sniffedFormat : declaredEssence === sniffedEssence;
}
