import { DATE_TAG_MONTHS, type TagSource, type VisionTag } from '@renamer/contracts';
import type { PhotoMetadata } from './read-photo-metadata';

/**
 * How far each of the file's words can be trusted to describe the picture, on the scale every source shares (0.5:
 * more likely right than wrong). The photographer's own title is the strongest signal there is; a description is
 * longer and drifts further from what is shown; keywords are often a stock list for a whole shoot. A place is named
 * from GPS, but the nearest town is not always where the subject is (the country nearly always is). The date says
 * when, not what, and camera clocks are often unset or in another time zone. Camera and lens describe the
 * equipment, never the picture: far below every name's threshold, so they never reach a filename.
 */
export const METADATA_CONFIDENCE = {
  title: 0.95,
  'file-keywords': 0.9,
  description: 0.85,
  country: 0.9,
  region: 0.8,
  city: 0.75,
  date: 0.5,
  camera: 0.1,
} as const;

/** `2023-06-14…` → `june 2023`: the month is what a name or alt text wants; the day is too precise to help. */
function monthOf(takenAt: string): string {
  const [year, month] = takenAt.split('-');
  return `${DATE_TAG_MONTHS[Number(month) - 1]} ${year}`;
}

/**
 * The file's words as tags. Labels are lowercased in the person's `locale` (Turkish `İ` → `i`) with their
 * spacing tidied and double quotes removed; a title or keyword loses surrounding punctuation, a description keeps
 * its sentences.
 */
export function metadataTags(meta: PhotoMetadata, locale = 'en'): VisionTag[] {
  const tags: VisionTag[] = [];
  const add = (text: string | undefined, source: TagSource, confidence: number, keepSentences = false) => {
    let label =
      text
        ?.toLocaleLowerCase(locale)
        .replace(/["“”„«»‹›]/g, '')
        .replace(/\s+/g, ' ')
        .trim() ?? '';
    if (!keepSentences) label = label.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (label) tags.push({ label, confidence, source });
  };
  add(meta.title, 'title', METADATA_CONFIDENCE.title);
  add(meta.description, 'description', METADATA_CONFIDENCE.description, true);
  for (const keyword of meta.keywords) add(keyword, 'file-keywords', METADATA_CONFIDENCE['file-keywords']);
  if (meta.place) {
    add(meta.place.city, 'place', METADATA_CONFIDENCE.city);
    add(meta.place.region, 'place', METADATA_CONFIDENCE.region);
    add(meta.place.country, 'place', METADATA_CONFIDENCE.country);
  }
  if (meta.takenAt) add(monthOf(meta.takenAt), 'date', METADATA_CONFIDENCE.date);
  add(meta.camera, 'camera', METADATA_CONFIDENCE.camera);
  add(meta.lens, 'camera', METADATA_CONFIDENCE.camera);
  return tags;
}
