import type { ImageAnalyzer } from './image-analyzer';
import { metadataStep } from './metadata-step';
import { OPTIONAL_STEPS, type OptionalStep } from './optional-steps';
import { createStepPipeline } from './step-pipeline';
import { fileMetadataStep } from './steps/file-metadata-step';
import { llmStep } from './steps/llm-step';
import { objectsStep } from './steps/objects-step';
import { pixelsStep } from './steps/pixels-step';
import { safetyStep } from './steps/safety-step';
import { textStep } from './steps/text-step';
import { withVisionModelRecords } from './vision-model-records';
import type { VisionToolkit } from './vision-toolkit';

/**
 * The production analyser: the file's header, then what the file says of itself, then the pixels (decoded
 * once): colours and scene, objects, text, safety; last, when one is configured, the vision model with all
 * of that as its hints.
 */
export function createImageAnalyzer(
  toolkit: VisionToolkit,
  options: { steps: ReadonlySet<OptionalStep>; llmTimeoutMs: number; llmEnabled?: () => Promise<boolean> },
): ImageAnalyzer {
  const steps = {
    'file-metadata': fileMetadataStep(toolkit),
    pixels: pixelsStep,
    objects: objectsStep(toolkit),
    text: textStep(toolkit),
    safety: safetyStep(toolkit),
    llm: toolkit.llm ? { ...llmStep(toolkit.llm, options.llmTimeoutMs), enabled: options.llmEnabled } : null,
  };
  const chosen = OPTIONAL_STEPS.flatMap((name) => (options.steps.has(name) && steps[name] ? [steps[name]] : []));
  // The model's tokens on its record, and a record of instructions no model read.
  const setup = { configured: toolkit.llm !== null, chosen: options.steps.has('llm') };
  return withVisionModelRecords(createStepPipeline([metadataStep, ...chosen]), setup);
}
