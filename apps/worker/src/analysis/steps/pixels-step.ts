import { describePixels, perceptualHash } from '@renamer/vision';
import type { AnalysisStep } from '../analysis-step';

/** Colours, light and scene from pixel statistics, and the difference hash that finds near-duplicates. */
export const pixelsStep: AnalysisStep = {
  name: 'pixels',
  source: 'pixel statistics',
  timeoutMs: 10_000,
  optional: true,
  run: async ({ decoded }) => {
    const image = await decoded();
    return { visionTags: describePixels(image), perceptualHash: perceptualHash(image) };
  },
};
