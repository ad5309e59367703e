import type { VisionTag } from '@renamer/contracts';
import type { ObjectResult } from '@vladmandic/human';
import type { DecodedImage } from '../decoded-image';
import { TRUSTED_COCO_LABELS } from './coco-labels';
import { acquireCocoModel, COCO_INPUT_PX, type CocoModel, releaseCocoModel } from './coco-model';
import { squareInput } from './model-input';
import { serialQueue } from './serial';

/** Calibrated on the fixture photographs (packages/vision/README.md, "Models"). */
export const DEFAULT_OBJECT_THRESHOLD = 0.5;
/** A detection covering less of the frame than this is not what the picture shows, whatever its score. */
const MIN_OBJECT_AREA = 0.005;

export interface ObjectDetectorOptions {
  /** Only trusted-class detections scoring at least this are returned. */
  threshold?: number;
}

export interface ObjectDetector {
  /** COCO objects plainly in the picture, one tag per word (its best score), best first; often none. */
  /** A call still waiting for the model when `signal` aborts is dropped. */
  detect(image: DecodedImage, signal?: AbortSignal): Promise<VisionTag[]>;
  /** Releases this detector's hold on the shared model; the last holder's close frees its weights. */
  close(): Promise<void>;
}

/** The COCO detector (centernet) that ships inside @vladmandic/human, on the process's shared tfjs. */
export async function createObjectDetector(options: ObjectDetectorOptions = {}): Promise<ObjectDetector> {
  const threshold = options.threshold ?? DEFAULT_OBJECT_THRESHOLD;
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`object threshold must be in (0, 1], got ${threshold}`);
  const model = await acquireCocoModel();
  // human keeps per-call state, so the worker's concurrent calls are queued rather than interleaved.
  const queue = serialQueue();
  let closed = false;
  return {
    detect: (image, signal) => {
      if (closed) return Promise.reject(new Error('the object detector is closed'));
      return queue(async () => objectTags(await detectObjects(model, image), threshold), signal);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await queue(releaseCocoModel);
    },
  };
}

async function detectObjects(model: CocoModel, image: DecodedImage): Promise<ObjectResult[]> {
  const input = await squareInput(model.tf, image, COCO_INPUT_PX);
  try {
    const result = await model.human.detect(input);
    if (result.error) throw new Error(`object detection failed: ${result.error}`);
    return result.object;
  } finally {
    input.dispose();
  }
}

/** Trusted, large enough and sure enough; duplicates of one word keep their best score. */
function objectTags(detections: readonly ObjectResult[], threshold: number): VisionTag[] {
  const best = new Map<string, number>();
  for (const detection of detections) {
    const label = TRUSTED_COCO_LABELS[detection.label];
    const [, , width, height] = detection.boxRaw;
    if (!label || detection.score < threshold || width * height < MIN_OBJECT_AREA) continue;
    best.set(label, Math.max(best.get(label) ?? 0, detection.score));
  }
  return [...best]
    .map(([label, confidence]): VisionTag => ({ label, confidence, source: 'objects' }))
    .sort((a, b) => b.confidence - a.confidence);
}
