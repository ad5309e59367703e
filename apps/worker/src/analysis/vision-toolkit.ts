import type { LlmProvider } from '@renamer/llm';
import {
  createObjectDetector,
  createSafetyClassifier,
  createTextReader,
  type ObjectDetector,
  placeNear,
  type SafetyClassifier,
  type TextReader,
} from '@renamer/vision';
import { ExifTool } from 'exiftool-vendored';

export interface VisionToolkitOptions {
  /** Where tesseract keeps its unpacked language data. */
  ocrCachePath: string;
  safetyThreshold: number;
  llm: LlmProvider | null;
}

/**
 * The long-lived parts of the local analyser, one of each per worker process: one ExifTool, the object
 * detector and the safety classifier (one shared tfjs WASM runtime), the OCR worker. Each model loads on
 * its first use, once, so a worker that never analyses an image never pays for it; `close` ends them all.
 */
export function createVisionToolkit(options: VisionToolkitOptions) {
  const exiftool = new ExifTool({ taskTimeoutMillis: 10_000 });
  const once = <T>(load: () => Promise<T>) => {
    let loading: Promise<T> | undefined;
    return {
      get: () => (loading ??= load()),
      loaded: () => loading,
    };
  };
  const objects = once<ObjectDetector>(() => createObjectDetector());
  const safety = once<SafetyClassifier>(() => createSafetyClassifier({ threshold: options.safetyThreshold }));
  const text = once<TextReader>(() => createTextReader({ cachePath: options.ocrCachePath }));

  return {
    exiftool,
    objects: objects.get,
    safety: safety.get,
    text: text.get,
    llm: options.llm,
    /**
     * Loads what the chosen steps need before the first job: loading parses the weights on the event loop
     * (seconds on a busy machine), which in the middle of jobs would hold back their lock renewals.
     */
    async warm(steps: ReadonlySet<string>) {
      if (steps.has('file-metadata')) placeNear(0, 0);
      await Promise.all([steps.has('objects') && objects.get(), steps.has('safety') && safety.get()]);
    },
    async close() {
      const closing = [objects, safety, text].map(async (model) =>
        (await model.loaded()?.catch(() => undefined))?.close(),
      );
      await Promise.allSettled([...closing, exiftool.end()]);
    },
  };
}

export type VisionToolkit = ReturnType<typeof createVisionToolkit>;
