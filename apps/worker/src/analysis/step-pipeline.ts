import type { ImageFormat } from '@renamer/contracts';
import { encodePreview, openUprightImage } from '@renamer/imaging';
import {
  ANALYSIS_EDGE_PX,
  analysisPixels,
  type DecodedImage,
  decodeUpright,
  type UprightPixels,
} from '@renamer/vision';
import sharp from 'sharp';
import type { AnalysisStep, StepInput, StepSignals } from './analysis-step';
import type { Analysis, AnalysisContext, ImageAnalyzer, StepRecord } from './image-analyzer';

class StepTimeoutError extends Error {}

/** Runs the step; past its timeout it is aborted and the step counts as timed out, whatever it does later. */
async function runWithinTimeout(step: AnalysisStep, input: Omit<StepInput, 'signal'>): Promise<StepSignals> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StepTimeoutError(`step ${step.name} timed out after ${step.timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, step.timeoutMs);
  });
  try {
    return await Promise.race([step.run({ ...input, signal: controller.signal }), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function decodeFile(path: string, format: ImageFormat): Promise<UprightPixels> {
  const opened = await openUprightImage(path, format, { maxEdge: ANALYSIS_EDGE_PX });
  try {
    return await decodeUpright(opened.image);
  } finally {
    await opened.release();
  }
}

/** The preview from the pixels already decoded: made smaller, never decoded from the file a second time. */
function previewOf({ data, width, height, channels }: UprightPixels): Promise<Buffer> {
  return encodePreview(sharp(data, { raw: { width, height, channels } }));
}

/**
 * The analyser as a list of steps over one local copy of the image, run in order. Each step's outcome
 * is recorded as provenance; an optional step that fails or times out is skipped, a required one fails
 * the attempt. The file is decoded once, in the format the header step read, by the first step that asks
 * for pixels or else for the preview at the end; a file that cannot be decoded gets no preview.
 */
export function createStepPipeline(steps: readonly AnalysisStep[]): ImageAnalyzer {
  return {
    async analyze(path: string, context: AnalysisContext): Promise<Analysis> {
      // Later steps refine the header, the alt text and the rest; tags from every step add up.
      let metadata: Analysis['metadata'] | undefined;
      let decoding: Promise<UprightPixels> | undefined;
      const decodeOnce = () => {
        if (!metadata) throw new Error('the pixels were asked for before the image header was read');
        decoding ??= decodeFile(path, metadata.format);
        return decoding;
      };
      let pixels: Promise<DecodedImage> | undefined;
      const decoded = () => (pixels ??= decodeOnce().then(analysisPixels));
      const visionTags: Analysis['visionTags'] = [];
      const input = { path, context, decoded, tagsSoFar: visionTags };
      const provenance: StepRecord[] = [];
      let altText: Analysis['altText'] = null;
      let safety: Analysis['safety'] = null;
      let perceptualHash: Analysis['perceptualHash'] = null;
      for (const step of steps) {
        if (step.enabled && !(await step.enabled())) continue;
        const started = performance.now();
        const record = { step: step.name, source: step.source };
        try {
          const found = await runWithinTimeout(step, input);
          metadata = found.metadata ?? metadata;
          altText = found.altText ?? altText;
          safety = found.safety ?? safety;
          perceptualHash = found.perceptualHash ?? perceptualHash;
          visionTags.push(...(found.visionTags ?? []));
          provenance.push({ ...record, outcome: 'ok', durationMs: Math.round(performance.now() - started) });
        } catch (error) {
          if (!step.optional) throw error;
          provenance.push({
            ...record,
            outcome: error instanceof StepTimeoutError ? 'timed-out' : 'failed',
            durationMs: Math.round(performance.now() - started),
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
      if (!metadata) throw new Error('no analysis step read the image header');
      const preview = await decodeOnce()
        .then(previewOf)
        .then(
          (webp) => ({ webp }),
          (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
        );
      return { metadata, visionTags, altText, safety, perceptualHash, preview, provenance };
    },
  };
}
