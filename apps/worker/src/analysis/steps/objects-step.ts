import type { AnalysisStep } from '../analysis-step';
import type { VisionToolkit } from '../vision-toolkit';

export const objectsStep = (toolkit: Pick<VisionToolkit, 'objects'>): AnalysisStep => ({
  name: 'objects',
  source: 'COCO objects and people (@vladmandic/human centernet, blazeface, movenet; tfjs WASM)',
  timeoutMs: 20_000,
  optional: true,
  run: async ({ decoded, signal }) => {
    const [detector, image] = await Promise.all([toolkit.objects(), decoded()]);
    return { visionTags: await detector.detect(image, signal) };
  },
});
