import type { AnalysisStep } from '../analysis-step';
import type { VisionToolkit } from '../vision-toolkit';

export const safetyStep = (toolkit: Pick<VisionToolkit, 'safety'>): AnalysisStep => ({
  name: 'safety',
  source: 'nsfwjs MobileNetV2 (tfjs WASM)',
  timeoutMs: 20_000,
  optional: true,
  run: async ({ decoded, signal }) => {
    const [classifier, image] = await Promise.all([toolkit.safety(), decoded()]);
    return { safety: await classifier.classify(image, signal) };
  },
});
