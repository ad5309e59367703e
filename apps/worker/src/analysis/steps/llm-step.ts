import type { LlmProvider } from '@renamer/llm';
import { smallJpeg } from '@renamer/llm';
import type { AnalysisStep } from '../analysis-step';

const TITLE_CONFIDENCE = 0.95;

/**
 * The configured vision model, given a small JPEG and the local signals. Optional: when it fails or runs out
 * of time the local tags name the image, and the step's record says so.
 */
export const llmStep = (llm: LlmProvider, timeoutMs: number): AnalysisStep => ({
  name: 'llm',
  source: 'OpenAI-compatible vision model',
  timeoutMs,
  optional: true,
  run: async ({ decoded, context, tagsSoFar, signal }) => {
    const jpeg = await smallJpeg(await decoded());
    const answer = await llm.describeImage(
      {
        jpeg,
        signals: { tags: tagsSoFar, keywords: context.keywords, context: context.context, locale: context.locale },
      },
      signal,
    );
    // The model's title leads its tags: it is its own name for the picture.
    const title = { label: answer.titleWords.join(' '), confidence: TITLE_CONFIDENCE, source: 'llm' as const };
    return { visionTags: [title, ...answer.tags], altText: answer.altText };
  },
});
