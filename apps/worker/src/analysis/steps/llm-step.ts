import type { LlmProvider } from '@renamer/llm';
import { LlmError, smallJpeg } from '@renamer/llm';
import type { AnalysisStep } from '../analysis-step';
import { reportTokens } from '../vision-model-records';

const TITLE_CONFIDENCE = 0.95;

/** The step's source: the model by name, so an analysis by another model is told apart. */
export const llmStepSource = (llm: Pick<LlmProvider, 'model'>) => `OpenAI-compatible vision model ${llm.model}`;

/**
 * The configured vision model, given a small JPEG, the local signals and the person's words: keywords, context,
 * the batch's template (how the words will be used) and instructions (their wishes). Optional: when it fails or
 * runs out of time the local tags name the image, and the step's record says so. The tokens each call used go
 * on the step's record (`withVisionModelRecords`).
 */
export const llmStep = (llm: LlmProvider, timeoutMs: number): AnalysisStep => ({
  name: 'llm',
  source: llmStepSource(llm),
  timeoutMs,
  optional: true,
  run: async ({ decoded, context, tagsSoFar, signal }) => {
    const jpeg = await smallJpeg(await decoded());
    const signals = {
      tags: tagsSoFar,
      keywords: context.keywords,
      context: context.context,
      locale: context.locale,
      template: context.template ?? null,
      instructions: context.instructions ?? null,
    };
    const answer = await llm.describeImage({ jpeg, signals }, signal).catch((error: unknown) => {
      if (error instanceof LlmError && error.usage) reportTokens(context, error.usage);
      throw error;
    });
    if (answer.usage) reportTokens(context, answer.usage);
    // The model's title leads its tags: it is its own name for the picture.
    const title = { label: answer.titleWords.join(' '), confidence: TITLE_CONFIDENCE, source: 'llm' as const };
    return { visionTags: [title, ...answer.tags], altText: answer.altText };
  },
});
