import { readImageMetadata } from '@renamer/imaging';
import type { AnalysisStep } from './analysis-step';

/** The image's own header: dimensions, format, orientation, safe EXIF. Without it no name can be proposed. */
export const metadataStep: AnalysisStep = {
  name: 'metadata',
  source: 'file header (sharp)',
  timeoutMs: 10_000,
  optional: false,
  run: async ({ path, context }) => ({ metadata: await readImageMetadata(path, context.format) }),
};
