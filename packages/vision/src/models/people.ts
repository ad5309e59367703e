import type { VisionTag } from '@renamer/contracts';
import type { BodyResult, FaceResult } from '@vladmandic/human';
import { confidenceBeyond } from '../pixels/confidence';

/**
 * People from blazeface (a face's box and score, nothing else: no age, gender or identity model is ever loaded)
 * and movenet (one body's keypoints). Calibrated on the tuning photographs, none of which shows a person close
 * enough to be seen: every threshold sits above the highest score a thing that is not a person reached there
 * (packages/vision/README.md, "People").
 */
/** blazeface's score for a face: a dog's face scored 0.72, half a fig 0.63. */
export const FACE_THRESHOLD = 0.8;
/** movenet's body score: autumn leaves on grass scored 0.56 (two "shoulders"). */
export const BODY_THRESHOLD = 0.6;
/** A body needs this many of its 17 keypoints seen with a score of 0.5 or more: no non-person had more than 2. */
export const BODY_KEYPOINTS = 5;
const KEYPOINT_SCORE = 0.5;
/** A face this large a share of the frame makes the picture a portrait. */
export const PORTRAIT_FACE_AREA = 0.05;
/** Smaller faces are crowds or noise: a name should not rest on them. */
const MIN_FACE_AREA = 0.001;

export interface PeopleFound {
  /** Faces past the threshold. */
  faces: number;
  /** A body past the thresholds (movenet sees one at most). */
  body: boolean;
  /** The best face's or body's confidence on the shared scale (0.5 at the threshold). */
  confidence: number;
  /** The largest face's share of the frame. */
  largestFace: number;
}

export function findPeople(faces: readonly FaceResult[], bodies: readonly BodyResult[]): PeopleFound {
  const sureFaces = faces.filter(
    (face) => face.score >= FACE_THRESHOLD && face.boxRaw[2] * face.boxRaw[3] >= MIN_FACE_AREA,
  );
  const sureBodies = bodies.filter(
    (body) =>
      body.score >= BODY_THRESHOLD &&
      body.keypoints.filter((keypoint) => keypoint.score >= KEYPOINT_SCORE).length >= BODY_KEYPOINTS,
  );
  const confidences = [
    ...sureFaces.map((face) => confidenceBeyond(face.score, FACE_THRESHOLD, 0.95)),
    ...sureBodies.map((body) => confidenceBeyond(body.score, BODY_THRESHOLD, 0.85)),
  ];
  return {
    faces: sureFaces.length,
    body: sureBodies.length > 0,
    confidence: Math.max(0, ...confidences),
    largestFace: Math.max(0, ...sureFaces.map((face) => face.boxRaw[2] * face.boxRaw[3])),
  };
}

/**
 * `person` for one, `people` for two or more (faces, or the detector's persons), `portrait` (source `composition`)
 * when one face is large in the frame. Never an age or a gender.
 */
export function peopleTags(found: PeopleFound, detectedPersons: readonly number[]): VisionTag[] {
  // A face alone is not enough: blazeface scores animals' faces as high as people's (a dog's 0.72 on the tuning
  // set). A body, or the COCO detector's person, must say it too; faces then only count the people.
  if (!found.body && detectedPersons.length === 0) return [];
  const persons = Math.max(found.faces, detectedPersons.length, 1);
  const confidence = Math.max(found.confidence, ...detectedPersons);
  const tags: VisionTag[] = [{ label: persons >= 2 ? 'people' : 'person', confidence, source: 'objects' }];
  if (found.faces === 1 && found.largestFace >= PORTRAIT_FACE_AREA) {
    tags.push({ label: 'portrait', confidence: found.confidence, source: 'composition' });
  }
  return tags;
}
