import type { VisionTag } from '@renamer/contracts';
import type { BodyResult, ObjectResult } from '@vladmandic/human';
import type { DecodedImage } from '../decoded-image';
import { TRUSTED_COCO_LABELS } from './coco-labels';
import {
  acquireCocoModel,
  BODY_ONLY,
  COCO_INPUT_PX,
  type CocoModel,
  OBJECTS_ONLY,
  PEOPLE_ONLY,
  releaseCocoModel,
} from './coco-model';
import { imageInput, type Region, squareInput } from './model-input';
import { bodyRegionOf, findPeople, isSureBody, peopleTags, sureFaces } from './people';
import { serialQueue } from './serial';

/** Calibrated on the fixture photographs (packages/vision/README.md, "Models"). */
export const DEFAULT_OBJECT_THRESHOLD = 0.5;
/**
 * Classes of distinctive shape that no tuning photograph showed wrongly at 0.3 or more (vehicles, bottles, cups,
 * glasses, kites, the big animals of unmistakable shape and coat): they are said from this much below the threshold.
 * Birds, farm animals, pets and people keep the threshold, as a seed head (0.43), a bee (0.38) and hanging leaves
 * (0.45) were called birds, rocks sheep (0.50) and cows (0.45), a white horse a sheep (0.30), a stream's stones a
 * person (0.41) (README, "Per-class thresholds, second round").
 */
const SHAPE_CLASS_ALLOWANCE = 0.05;
/** A truck is said from this much above the threshold: old and open cars are trucks to the model. */
const TRUCK_RAISE = 0.1;
const SHAPE_CLASSES: ReadonlySet<string> = new Set([
  'bicycle',
  'car',
  'motorcycle',
  'airplane',
  'bus',
  'train',
  'boat',
  'stop sign',
  'fire hydrant',
  'kite',
  'bottle',
  'wine glass',
  'cup',
  'laptop',
  'teddy bear',
  'elephant',
  'zebra',
  'giraffe',
]);
/** A detection covering less of the frame than this is not what the picture shows, whatever its score. */
const MIN_OBJECT_AREA = 0.005;
/**
 * An animal whose box fills this much of what the model looked at or more is a face or a coat seen close, with no
 * outline to tell the species by: a tabby cat's face filling the frame was a "bear" (0.41 whole, 0.47 in the
 * crop, boxes of 98 % and 100 %), while the true animals of the tuning set fill 5–54 % of the frame and at most 85 %
 * of the crop (README, "Animals filling the frame"). Such a box names no animal.
 */
const MAX_ANIMAL_AREA = 0.9;
const ANIMAL_CLASSES: ReadonlySet<string> = new Set([
  'bird',
  'cat',
  'dog',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
]);
/**
 * The middle of the picture (60 % of each side), where small subjects usually are, looked at again at the model's
 * full input size: a detection there counts when it is past the threshold in the crop and the same class was
 * already seen in the whole frame at `CONFIRMING_SCORE` or more (README, "Crops").
 */
const CENTRE: Region = { left: 0.2, top: 0.2, width: 0.6, height: 0.6 };
const CONFIRMING_SCORE = 0.4;
/** A group's first faces are enough to say people. */
const MAX_FACES_LOOKED_AT = 3;
/** blazeface looks at 256 px, movenet at 192 px: the people models get the picture at this size, aspect kept. */
const PEOPLE_INPUT_PX = 512;

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
      return queue(async () => {
        const whole = await detectObjects(model, image);
        // The crop can only confirm a class the whole frame saw short of the threshold: without one, it is not run.
        const centre = whole.some((detection) => isUnconfirmed(detection, threshold))
          ? await detectObjects(model, image, CENTRE)
          : [];
        const objects = objectTags(whole, centre, threshold);
        const person = objects.find((tag) => tag.label === 'person');
        const persons = wholeFramePersons(whole, threshold);
        const people = peopleTags(
          await detectPeople(model, image),
          persons.length === 0 && person ? [person.confidence] : persons,
        );
        return [...objects.filter((tag) => tag !== person), ...people].sort((a, b) => b.confidence - a.confidence);
      }, signal);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await queue(releaseCocoModel);
    },
  };
}

async function detectObjects(model: CocoModel, image: DecodedImage, region?: Region): Promise<ObjectResult[]> {
  const input = await squareInput(model.tf, image, COCO_INPUT_PX, region);
  try {
    const result = await model.human.detect(input, OBJECTS_ONLY);
    if (result.error) throw new Error(`object detection failed: ${result.error}`);
    return result.object;
  } finally {
    input.dispose();
  }
}

async function detectPeople(model: CocoModel, image: DecodedImage) {
  const input = await imageInput(model.tf, image, PEOPLE_INPUT_PX);
  try {
    const result = await model.human.detect(input, PEOPLE_ONLY);
    if (result.error) throw new Error(`people detection failed: ${result.error}`);
    // A face the whole frame's body did not confirm gets a look of its own (several people confuse movenet).
    const aroundFaces: BodyResult[] = [];
    if (!result.body.some(isSureBody)) {
      for (const face of sureFaces(result.face).slice(0, MAX_FACES_LOOKED_AT)) {
        aroundFaces.push(...(await detectBody(model, image, bodyRegionOf(face))));
      }
    }
    return findPeople(result.face, result.body, aroundFaces);
  } finally {
    input.dispose();
  }
}

async function detectBody(model: CocoModel, image: DecodedImage, region: Region): Promise<BodyResult[]> {
  const input = await imageInput(model.tf, image, PEOPLE_INPUT_PX, region);
  try {
    const result = await model.human.detect(input, BODY_ONLY);
    if (result.error) throw new Error(`people detection failed: ${result.error}`);
    return result.body;
  } finally {
    input.dispose();
  }
}

/**
 * The score a class must reach: the threshold, a little less for the classes of distinctive shape, more for a truck
 * (a vintage open car was a 0.58 "truck", a pickup truck 0.67; README, "Per-class thresholds, third round").
 */
function thresholdOf(label: string, threshold: number): number {
  if (label === 'truck') return threshold + TRUCK_RAISE;
  return SHAPE_CLASSES.has(label) ? threshold - SHAPE_CLASS_ALLOWANCE : threshold;
}

/**
 * A trusted class, past its threshold, and large enough a share of what the model looked at (an animal not so large
 * that it fills it).
 */
function isSure(detection: ObjectResult, threshold: number): boolean {
  const [, , width, height] = detection.boxRaw;
  const area = width * height;
  return (
    Boolean(TRUSTED_COCO_LABELS[detection.label]) &&
    detection.score >= thresholdOf(detection.label, threshold) &&
    area >= MIN_OBJECT_AREA &&
    !(ANIMAL_CLASSES.has(detection.label) && area >= MAX_ANIMAL_AREA)
  );
}

/** A trusted class seen at `CONFIRMING_SCORE` or more but short of its threshold: the crop may confirm it. */
function isUnconfirmed(detection: ObjectResult, threshold: number): boolean {
  return (
    Boolean(TRUSTED_COCO_LABELS[detection.label]) &&
    detection.score >= CONFIRMING_SCORE &&
    detection.score < thresholdOf(detection.label, threshold)
  );
}

/** The scores of the persons the detector is sure of in the whole frame (each one a person: counted for `people`). */
function wholeFramePersons(whole: readonly ObjectResult[], threshold: number): number[] {
  return whole.filter((detection) => detection.label === 'person' && isSure(detection, threshold)).map((d) => d.score);
}

/**
 * Trusted, large enough and sure enough in the whole frame, or in the centre crop when the whole frame saw the same
 * class at `CONFIRMING_SCORE` or more; duplicates of one word keep their best score. The confidence is the score,
 * raised by `SHAPE_CLASS_ALLOWANCE` for a shape class, so that every class is at 0.5 at its own threshold.
 */
function objectTags(whole: readonly ObjectResult[], centre: readonly ObjectResult[], threshold: number): VisionTag[] {
  const best = new Map<string, number>();
  const keep = (detection: ObjectResult) => {
    const label = TRUSTED_COCO_LABELS[detection.label]!;
    // On the shared scale a tag is 0.5 at its own threshold: a shape class's allowance is added back.
    const confidence = Math.min(1, detection.score + threshold - thresholdOf(detection.label, threshold));
    best.set(label, Math.max(best.get(label) ?? 0, Number(confidence.toFixed(2))));
  };
  for (const detection of whole) if (isSure(detection, threshold)) keep(detection);
  const seenWhole = (label: string) =>
    whole.some((detection) => detection.label === label && detection.score >= CONFIRMING_SCORE);
  for (const detection of centre) if (isSure(detection, threshold) && seenWhole(detection.label)) keep(detection);
  return [...best]
    .map(([label, confidence]): VisionTag => ({ label, confidence, source: 'objects' }))
    .sort((a, b) => b.confidence - a.confidence);
}
