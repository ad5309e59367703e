import type { ImageSafety } from '@renamer/contracts';
import type { NSFWJS } from 'nsfwjs';
import type { DecodedImage } from '../decoded-image';
import { squareInput } from './model-input';
import { serialQueue } from './serial';
import { type Tfjs, tfjsRuntime } from './tfjs-runtime';

/** MobileNetV2's input square. */
const SAFETY_INPUT_PX = 224;

/**
 * nsfwjs's explicit classes. `Sexy` (swimwear, underwear, bare skin that is not explicit) is left out: a shop's
 * swimwear or lingerie photos are legitimate, and an "unsafe" judgement may refuse an upload.
 */
const UNSAFE_CLASSES = ['Porn', 'Hentai'] as const;

/** nsfwjs's five classes: Drawing, Hentai, Neutral, Porn, Sexy. */
const CLASS_COUNT = 5;

/** Calibrated on the fixture photographs (packages/vision/README.md, "Models"). */
export const DEFAULT_SAFETY_THRESHOLD = 0.7;

export interface SafetyClassifierOptions {
  /** An image whose unsafe classes sum to at least this is unsafe. */
  threshold?: number;
}

export interface SafetyClassifier {
  /** A call still waiting for the model when `signal` aborts is dropped. */
  classify(image: DecodedImage, signal?: AbortSignal): Promise<ImageSafety>;
  /** Frees the model's weights; the classifier cannot be used afterwards. */
  close(): Promise<void>;
}

/** nsfwjs with its bundled MobileNetV2 (no network), on the process's shared tfjs. */
export async function createSafetyClassifier(options: SafetyClassifierOptions = {}): Promise<SafetyClassifier> {
  const threshold = options.threshold ?? DEFAULT_SAFETY_THRESHOLD;
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`safety threshold must be in (0, 1], got ${threshold}`);
  const tf = await tfjsRuntime();
  const { load } = await import('nsfwjs');
  const model = await load('MobileNetV2');
  // Calls run one at a time, so close() waits for the ones in flight before it frees the weights.
  const queue = serialQueue();
  let closed = false;
  return {
    classify: (image, signal) => {
      if (closed) return Promise.reject(new Error('the safety classifier is closed'));
      return queue(async () => {
        const score = await unsafeProbability(tf, model, image);
        return { unsafe: score >= threshold, score };
      }, signal);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await queue(async () => model.dispose());
    },
  };
}

async function unsafeProbability(tf: Tfjs, model: NSFWJS, image: DecodedImage): Promise<number> {
  const input = await squareInput(tf, image, SAFETY_INPUT_PX);
  try {
    const predictions = await model.classify(input, CLASS_COUNT);
    const sum = predictions
      .filter((prediction) => (UNSAFE_CLASSES as readonly string[]).includes(prediction.className))
      .reduce((total, prediction) => total + prediction.probability, 0);
    return Math.min(1, sum);
  } finally {
    input.dispose();
  }
}
