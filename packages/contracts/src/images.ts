import { z } from 'zod';
import { IMAGE_STATUSES, type ImageStatus } from './enums';
import { IMAGE_FORMAT_ENTRIES, IMAGE_FORMAT_TABLE, type ImageFormatName, type RawFormat } from './image-formats';

/** Image formats as sniffed from the file's magic bytes; the only ones accepted for upload (`image-formats.ts`). */
export const IMAGE_FORMATS = IMAGE_FORMAT_ENTRIES.map(([format]) => format) as [ImageFormatName, ...ImageFormatName[]];
export const ImageFormat = z.enum(IMAGE_FORMATS);
export type ImageFormat = z.infer<typeof ImageFormat>;

/**
 * The file name extensions clients look for when they pick images from a folder (the API itself trusts only the
 * bytes): every accepted format's usual ones.
 */
export const IMAGE_FILE_EXTENSIONS: readonly string[] = IMAGE_FORMAT_ENTRIES.flatMap(([, facts]) => facts.extensions);

export function isRawFormat(format: ImageFormat): format is RawFormat {
  return IMAGE_FORMAT_TABLE[format].cameraRaw;
}

/** The EXIF fields we keep: nothing that locates a person (no GPS, no serial numbers). */
export const SafeExif = z.object({
  make: z.string().optional(),
  model: z.string().optional(),
  /** As the camera wrote it, without a time zone: `YYYY-MM-DDTHH:MM:SS`. */
  dateTimeOriginal: z.string().optional(),
});
export type SafeExif = z.infer<typeof SafeExif>;

/** Width and height are of the stored pixels (one frame of an animation), before EXIF orientation. */
export const ImageMetadata = z.object({
  width: z.number().int(),
  height: z.number().int(),
  format: ImageFormat,
  orientation: z.number().int().optional(),
  hasAlpha: z.boolean(),
  pages: z.number().int().optional(),
  /** A JPEG carrying the video its own XMP (or Samsung's trailer) declares after the image: kept byte for byte. */
  motionPhoto: z.boolean().optional(),
  /** A few safe EXIF fields; the stored bytes keep the full EXIF. */
  exif: SafeExif.optional(),
});
export type ImageMetadata = z.infer<typeof ImageMetadata>;

/**
 * Where a tag comes from. The person's words: `keywords` (the batch's), `context` (the batch's free text),
 * `filename` (the uploaded name, unless a camera made it). The file's own metadata: `title`, `description`,
 * `file-keywords`, `camera`, `date`, `place` (GPS turned into a city offline; the coordinates are not kept). The
 * pixels: `text` (OCR), `objects` (the COCO detector), `colour`, `scene` (what the setting shows: sky, water),
 * `composition` (what kind of picture it is: close-up, portrait, landscape, still life), `light` (golden hour,
 * low light, backlit). `llm`: the configured vision model.
 */
export const TAG_SOURCES = [
  'keywords',
  'context',
  'filename',
  'title',
  'description',
  'file-keywords',
  'camera',
  'date',
  'place',
  'text',
  'objects',
  'colour',
  'scene',
  'composition',
  'light',
  'llm',
] as const;
export const TagSource = z.enum(TAG_SOURCES);

/** A `date` tag's label is an English month and the year (`june 2023`), whatever the person's locale. */
export const DATE_TAG_MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;
export type TagSource = z.infer<typeof TagSource>;

export const VisionTag = z.object({
  label: z.string(),
  confidence: z.number().min(0).max(1),
  source: TagSource,
});
export type VisionTag = z.infer<typeof VisionTag>;

/** The rules a filename is scored by, after Google's image SEO guidance. */
export const SEO_RULES = [
  'descriptive',
  'concise',
  'hyphenated',
  'lowercase',
  'no_generic_words',
  'no_repeated_words',
  'keyword_present',
  'consistent_with_tags',
] as const;
export const SeoRule = z.enum(SEO_RULES);
export type SeoRule = z.infer<typeof SeoRule>;

export const SeoScore = z.object({
  score: z.number().int().min(0).max(100),
  reasons: z.array(z.object({ rule: SeoRule, passed: z.boolean(), detail: z.string() })),
});
export type SeoScore = z.infer<typeof SeoScore>;

/** The content-safety judgement: the unsafe classes' summed probability, and whether it passed the threshold. */
export const ImageSafety = z.object({ unsafe: z.boolean(), score: z.number().min(0).max(1) });
export type ImageSafety = z.infer<typeof ImageSafety>;

/** What one step of an image's analysis did, kept with its result so a skipped signal is never a silent one. */
export const AnalysisStepRecord = z.object({
  step: z.string(),
  /** Where the step's signals come from (the file's header, a model and its version, a provider). */
  source: z.string(),
  /**
   * `skipped`: the step did not run and its record says why in `source` (instructions given with no vision model
   * to read them); it is no failure.
   */
  outcome: z.enum(['ok', 'failed', 'timed-out', 'skipped']),
  durationMs: z.number().int().min(0),
  /** What a call to a vision model used, as its server reported it (absent when it reported nothing). */
  tokens: z.object({ prompt: z.number().int().min(0), completion: z.number().int().min(0) }).optional(),
  /** The person's instructions a vision model was given (null: none), so a change of them is known to need it again. */
  instructions: z.string().nullable().optional(),
});
export type AnalysisStepRecord = z.infer<typeof AnalysisStepRecord>;

const imageCount = z.number().int();

/** How many of a batch's images are in each status. */
export const ImageStatusCounts = z.object(
  Object.fromEntries(IMAGE_STATUSES.map((status) => [status, imageCount])) as Record<ImageStatus, typeof imageCount>,
);
export type ImageStatusCounts = z.infer<typeof ImageStatusCounts>;

export const emptyImageStatusCounts = (): ImageStatusCounts =>
  Object.fromEntries(IMAGE_STATUSES.map((status) => [status, 0])) as ImageStatusCounts;
