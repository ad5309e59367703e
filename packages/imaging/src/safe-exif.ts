import type { SafeExif } from '@renamer/contracts';
import exifReader from 'exif-reader';

const MAX_TEXT_LENGTH = 64;

function cleanText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const text = value.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return text ? text.slice(0, MAX_TEXT_LENGTH) : undefined;
}

// exif-reader reads the camera's wall-clock time as if it were UTC, so the UTC fields give it back.
function wallClockTime(value: unknown): string | undefined {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return undefined;
  return value.toISOString().slice(0, 19);
}

/** Camera make and model cleaned, the capture time as wall-clock text; undefined when none is left. */
export function safeExifOf(make: unknown, model: unknown, dateTimeOriginal: string | undefined): SafeExif | undefined {
  const fields: SafeExif = { make: cleanText(make), model: cleanText(model), dateTimeOriginal };
  const present = Object.entries(fields).filter(([, value]) => value !== undefined);
  return present.length ? (Object.fromEntries(present) as SafeExif) : undefined;
}

/** Picks the safe fields out of a raw EXIF block; undefined when it has none or cannot be parsed. */
export function safeExifFrom(raw: Buffer | undefined): SafeExif | undefined {
  if (!raw) return undefined;
  let parsed: ReturnType<typeof exifReader>;
  try {
    parsed = exifReader(raw);
  } catch {
    return undefined;
  }
  return safeExifOf(parsed.Image?.Make, parsed.Image?.Model, wallClockTime(parsed.Photo?.DateTimeOriginal));
}
