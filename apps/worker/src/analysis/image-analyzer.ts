import type { AnalysisStepRecord, ImageFormat, ImageMetadata, ImageSafety, VisionTag } from '@renamer/contracts';

/** What the person told us about the image and its batch. */
export interface AnalysisContext {
  originalFilename: string;
  keywords: readonly string[];
  /** The batch's free text ("handmade ceramic mugs for a coffee shop"). */
  context: string | null;
  locale: string;
  /** The batch's naming template (`acme-{subject}-{seq:3}`), or null for `{subject}` alone. */
  template?: string | null;
  /** What the person asks of the vision model ("mention the product colour"); null when nothing. */
  instructions?: string | null;
  /** When the file was uploaded, and its position in the upload from 1: a template's `{date}` and `{seq}`. */
  uploadedAt?: Date;
  seq?: number;
  /** The format the upload check found; a camera RAW is read through ExifTool and its preview. */
  format?: ImageFormat;
}

/** A step's stored record, and for the worker's log only why it was skipped (the cause may name paths or hosts). */
export interface StepRecord extends AnalysisStepRecord {
  error?: string;
}

export interface Analysis {
  metadata: ImageMetadata;
  /** What every step found, each tag with its source; the person's own words are added by the naming. */
  visionTags: VisionTag[];
  /** The vision model's alt text, when one was asked; otherwise the naming writes it from the tags. */
  altText: string | null;
  safety: ImageSafety | null;
  perceptualHash: string | null;
  /** The preview (WebP) from the same decode as the pixels, or why there is none (for the worker's log only). */
  preview: { webp: Buffer } | { error: string };
  provenance: StepRecord[];
}

/** What the worker needs from image analysis: one call per attempt, over the object's local copy. */
export interface ImageAnalyzer {
  analyze(path: string, context: AnalysisContext): Promise<Analysis>;
}
