import type { VisionTag } from '@renamer/contracts';
import type { DecodedImage } from '@renamer/vision';
import type { Analysis, AnalysisContext } from './image-analyzer';

/** The signals a step adds; the pipeline merges them in step order. */
export type StepSignals = Partial<Pick<Analysis, 'metadata' | 'visionTags' | 'altText' | 'safety' | 'perceptualHash'>>;

export interface StepInput {
  /** The object's local copy: downloaded once per attempt, read by every step. */
  path: string;
  context: AnalysisContext;
  /** The pixels, decoded on the first call and shared by every step after it. */
  decoded(): Promise<DecodedImage>;
  /** The tags the steps before this one found (a vision model is given the local signals). */
  tagsSoFar: readonly VisionTag[];
  /** Aborted when the step runs out of time: work it starts (a request, a model run) should stop. */
  signal: AbortSignal;
}

export interface AnalysisStep {
  name: string;
  /** Recorded with the step's outcome, as the provenance of its signals. */
  source: string;
  timeoutMs: number;
  /** An optional step that fails or runs out of time is recorded and skipped; a required one fails the attempt. */
  optional: boolean;
  /** Asked before each run when given: a step switched off (a feature flag) is left out, unrecorded. */
  enabled?(): Promise<boolean>;
  run(input: StepInput): Promise<StepSignals>;
}
