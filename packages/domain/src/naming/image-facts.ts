import { DATE_TAG_MONTHS } from '@renamer/contracts';

/** What is known of an image besides its tags: what a template's tokens and a name's last words are made of. */
export interface ImageFacts {
  /** The name the file was uploaded under. */
  originalFilename: string;
  /** Of the stored pixels, before the EXIF orientation. */
  width?: number | null;
  height?: number | null;
  /** EXIF orientation: 5 to 8 turn the picture a quarter. */
  orientation?: number | null;
  /** EXIF `DateTimeOriginal` as the camera wrote it (`YYYY-MM-DDTHH:MM:SS`). */
  capturedAt?: string | null;
  /** When the file was uploaded: the date when the camera gave none. */
  uploadedAt?: Date | null;
  camera?: { make?: string; model?: string } | null;
  /** Position in the upload, from 1. */
  seq?: number | null;
}

/** The words `frameWords` says a picture's shape with, each followed by `format`. */
export const FRAME_SHAPES = ['horizontal', 'vertical', 'square'] as const;
export const FRAME_WORD = 'format';

const CAMERA_DATE = /^(\d{4})[-:](\d{2})[-:](\d{2})/;

/** The capture date, else the upload date, as year, month and day; null when neither is known. */
export function dateOf(facts: ImageFacts): { year: string; month: string; day: string } | null {
  const captured = facts.capturedAt ? CAMERA_DATE.exec(facts.capturedAt) : null;
  if (captured && Number(captured[2]) >= 1 && Number(captured[2]) <= 12) {
    return { year: captured[1]!, month: captured[2]!, day: captured[3]! };
  }
  if (!facts.uploadedAt || Number.isNaN(facts.uploadedAt.getTime())) return null;
  const iso = facts.uploadedAt.toISOString();
  return { year: iso.slice(0, 4), month: iso.slice(5, 7), day: iso.slice(8, 10) };
}

/** `horizontal format`, `vertical format` or `square format` as the picture stands upright; null without its size. */
export function frameWords(facts: ImageFacts): string[] | null {
  if (!facts.width || !facts.height) return null;
  const quarterTurn = (facts.orientation ?? 1) >= 5;
  const [width, height] = quarterTurn ? [facts.height, facts.width] : [facts.width, facts.height];
  const ratio = width / height;
  const [horizontal, vertical, square] = FRAME_SHAPES;
  return [ratio > 1.05 ? horizontal : ratio < 0.95 ? vertical : square, FRAME_WORD];
}

/** The month and year the picture was taken or uploaded (`november 2026`): true of any picture, said last. */
export function whenWords(facts: ImageFacts): string[] | null {
  const date = dateOf(facts);
  return date ? [DATE_TAG_MONTHS[Number(date.month) - 1]!, date.year] : null;
}
