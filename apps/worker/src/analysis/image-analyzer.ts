import type { ImageMetadata, VisionTag } from '@renamer/contracts';

export interface AnalysisContext {
  originalFilename: string;
  keywords: readonly string[];
  batchName: string | null;
  locale: string;
}

export interface Analysis {
  metadata: ImageMetadata;
  visionTags: VisionTag[];
  altText: string | null;
  /** Words or phrases for the proposed filename, most important first. */
  nameCandidates: string[];
}

/** What the worker needs from image analysis; richer analysers replace the first one behind this. */
export interface ImageAnalyzer {
  analyze(path: string, context: AnalysisContext): Promise<Analysis>;
}
