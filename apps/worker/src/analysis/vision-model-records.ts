import type { LlmUsage } from '@renamer/llm';
import type { AnalysisContext, ImageAnalyzer, StepRecord } from './image-analyzer';

/**
 * What the vision model's part of one analysis leaves in its step records, beyond what the pipeline writes: the
 * tokens the call used (on the `llm` record), and, when the person gave instructions that no model read, a
 * `skipped` record saying why.
 *
 * The pipeline writes each step's record from the step's outcome alone; the llm step reports its tokens here,
 * keyed by the analysis's own context object (one per call to `analyze`, so concurrent analyses stay apart).
 */
const callsByContext = new WeakMap<AnalysisContext, { tokens?: LlmUsage }>();

/** The llm step's report of what its call used (also when the answer was unusable: the tokens were spent). */
export function reportTokens(context: AnalysisContext, tokens: LlmUsage): void {
  const call = callsByContext.get(context);
  if (call) call.tokens = tokens;
}

export interface VisionModelSetup {
  /** `LLM_BASE_URL` and `LLM_MODEL` are set. */
  configured: boolean;
  /** `llm` is among `ANALYSIS_STEPS`. */
  chosen: boolean;
}

/** Why instructions went unread when no `llm` record exists: the model is absent, left out, or switched off. */
function whyUnread(setup: VisionModelSetup): string {
  if (!setup.configured) return 'no vision model configured';
  if (!setup.chosen) return 'the llm step is not in ANALYSIS_STEPS';
  return 'the vision model is switched off (llm-analysis flag)';
}

export const INSTRUCTIONS_SKIPPED_STEP = 'instructions';

/** The instructions as the model gets them: trimmed, null when there are none. */
export const givenInstructions = (context: Pick<AnalysisContext, 'instructions'>) =>
  context.instructions?.trim() || null;

/**
 * Whether the image's stored analysis is not what the vision model in use (`modelSource`, its step's source; null
 * when none is) would give now: a model was added or changed since, or the batch's instructions changed. Naming
 * again analyses such images again; every other image is named from what is stored.
 */
export function needsTheModelAgain(
  analysisSteps: readonly StepRecord[],
  instructions: string | null,
  modelSource: string | null,
): boolean {
  if (modelSource === null) return false;
  const call = analysisSteps.find((record) => record.step === 'llm');
  return (
    call === undefined ||
    call.source !== modelSource ||
    (call.instructions ?? null) !== givenInstructions({ instructions })
  );
}

export function withVisionModelRecords(analyzer: ImageAnalyzer, setup: VisionModelSetup): ImageAnalyzer {
  return {
    async analyze(path, context) {
      const own: AnalysisContext = { ...context };
      const call: { tokens?: LlmUsage } = {};
      callsByContext.set(own, call);
      const analysis = await analyzer.analyze(path, own);
      const provenance: StepRecord[] = analysis.provenance.map((record) =>
        record.step === 'llm'
          ? { ...record, ...(call.tokens && { tokens: call.tokens }), instructions: givenInstructions(context) }
          : record,
      );
      if (context.instructions?.trim() && !provenance.some((record) => record.step === 'llm')) {
        provenance.push({
          step: INSTRUCTIONS_SKIPPED_STEP,
          source: whyUnread(setup),
          outcome: 'skipped',
          durationMs: 0,
        });
      }
      return { ...analysis, provenance };
    },
  };
}
