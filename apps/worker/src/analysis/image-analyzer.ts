import type { ImageMetadata, VisionTag } from '@renamer/contracts';

export interface AnalysisContext {
  originalFilename: string;
  keywords: readonly string[];
  batchName: string | null;
  locale: string;
}

/** What one step of the analysis did: kept with the result, so a skipped signal is never a silent one. */
export interface StepRecord {
  step: string;
  /** Where the step's signals come from (the file's header, a model and its version, a provider). */
  source: string;
  outcome: 'ok' | 'failed' | 'timed-out';
  durationMs: number;
  /** Why an optional step was skipped; for the worker's log only (it may name paths or hosts). */
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
