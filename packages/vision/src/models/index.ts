export { OBJECT_WORDS } from './coco-labels';
export {
  createObjectDetector,
  DEFAULT_OBJECT_THRESHOLD,
  type ObjectDetector,
  type ObjectDetectorOptions,
} from './object-detector';
export {
  createSafetyClassifier,
  DEFAULT_SAFETY_THRESHOLD,
  type SafetyClassifier,
  type SafetyClassifierOptions,
} from './safety-classifier';
