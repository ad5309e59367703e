import type { AnalysisStepRecord, ImageMetadata, VisionTag } from '@renamer/contracts';

export interface AnalysisContext {
  originalFilename: string;
  keywords: readonly string[];
  batchName: string | null;
  locale: string;
}

/** A step's stored record, and for the worker's log only why it was skipped (the cause may name paths or hosts). */
export interface StepRecord extends AnalysisStepRecord {
  error?: string;
}

export interface Analysis {
  metadata: ImageMetadata;
  visionTags: VisionTag[];
  altText: string | null;
  /** Words or phrases for the proposed filename, most important first. */
  nameCandidates: string[];
  provenance: StepRecord[];
}

/** What the worker needs from image analysis: one call per attempt, over the object's local copy. */
export interface ImageAnalyzer {
  analyze(path: string, context: AnalysisContext): Promise<Analysis>;
}
