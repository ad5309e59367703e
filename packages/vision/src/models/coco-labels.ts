import type { ObjectType } from '@vladmandic/human';

/**
 * The COCO classes whose detections are trusted, with the plain English word a filename gets. Every other class
 * is dropped whatever its score: on real photographs centernet calls wooden structures furniture (chair, bench,
 * dining table, bed, couch), round things food or balls (orange, apple, donut, pizza, cake, sports ball), long
 * curved shapes surfboards and scissors, and small lights traffic lights (evidence: packages/vision/README.md,
 * "Models").
 */
export const TRUSTED_COCO_LABELS: Partial<Record<ObjectType, string>> = {
  person: 'person',
  bicycle: 'bicycle',
  car: 'car',
  motorcycle: 'motorcycle',
  airplane: 'airplane',
  bus: 'bus',
  train: 'train',
  truck: 'truck',
  boat: 'boat',
  bird: 'bird',
  cat: 'cat',
  dog: 'dog',
  horse: 'horse',
  sheep: 'sheep',
  cow: 'cow',
  elephant: 'elephant',
  bear: 'bear',
  zebra: 'zebra',
  giraffe: 'giraffe',
  'stop sign': 'stop sign',
  'fire hydrant': 'fire hydrant',
  kite: 'kite',
  bottle: 'bottle',
  'wine glass': 'wine glass',
  cup: 'cup',
  laptop: 'laptop',
  'teddy bear': 'teddy bear',
};

/** Every word the object detector may say: its trusted classes, and the people words (`person`, `people`). */
export const OBJECT_WORDS: readonly string[] = [...new Set([...Object.values(TRUSTED_COCO_LABELS), 'people'])];
