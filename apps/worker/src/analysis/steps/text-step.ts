import { mayHoldText } from '@renamer/vision';
import type { AnalysisStep } from '../analysis-step';
import type { VisionToolkit } from '../vision-toolkit';

/** Words printed in the picture (a label, a sign); OCR runs only when a cheap test finds text-like regions. */
export const textStep = (toolkit: Pick<VisionToolkit, 'text'>): AnalysisStep => ({
  name: 'text',
  source: 'OCR (tesseract.js, English)',
  timeoutMs: 20_000,
  optional: true,
  run: async ({ decoded, signal }) => {
    const image = await decoded();
    if (!mayHoldText(image)) return {};
    const reader = await toolkit.text();
    return { visionTags: await reader.read(image, signal) };
  },
});
