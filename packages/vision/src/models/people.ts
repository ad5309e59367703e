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
  /** Faces whose own surroundings showed a body (looked at only when the whole frame's body did not pass). */
  facesWithBody: number;
}

/** The sure faces of a detection: past the threshold and not too small. */
export function sureFaces(faces: readonly FaceResult[]): FaceResult[] {
  return faces.filter((face) => face.score >= FACE_THRESHOLD && face.boxRaw[2] * face.boxRaw[3] >= MIN_FACE_AREA);
}

/** Whether movenet's body passes: its score, and enough of its keypoints seen. */
export function isSureBody(body: BodyResult): boolean {
  return (
    body.score >= BODY_THRESHOLD &&
    body.keypoints.filter((keypoint) => keypoint.score >= KEYPOINT_SCORE).length >= BODY_KEYPOINTS
  );
}

/**
 * Where a face's body would be, as shares of the frame: three face widths across, from a face height above the face
 * to three below it. movenet sees one body at a time, so with several people in the frame it may pass for none;
 * looked at around each face, each body is alone.
 */
export function bodyRegionOf(face: FaceResult) {
  const [x, y, width, height] = face.boxRaw;
  const left = Math.max(0, x - width);
  const top = Math.max(0, y - height);
  return {
    left,
    top,
    width: Math.min(1, x + 2 * width) - left,
    height: Math.min(1, y + 4 * height) - top,
  };
}

export function findPeople(
  faces: readonly FaceResult[],
  bodies: readonly BodyResult[],
  bodiesAroundFaces: readonly BodyResult[] = [],
): PeopleFound {
  const passing = sureFaces(faces);
  const sureBodies = [...bodies, ...bodiesAroundFaces].filter(isSureBody);
  const confidences = [
    ...passing.map((face) => confidenceBeyond(face.score, FACE_THRESHOLD, 0.95)),
    ...sureBodies.map((body) => confidenceBeyond(body.score, BODY_THRESHOLD, 0.85)),
  ];
  return {
    faces: passing.length,
    body: bodies.some(isSureBody),
    confidence: Math.max(0, ...confidences),
    largestFace: Math.max(0, ...passing.map((face) => face.boxRaw[2] * face.boxRaw[3])),
    facesWithBody: bodiesAroundFaces.filter(isSureBody).length,
  };
}

/**
 * `person` for one, `people` for two or more (faces, or the detector's persons), `portrait` (source `composition`)
 * when one face is large in the frame. Never an age or a gender.
 */
export function peopleTags(found: PeopleFound, detectedPersons: readonly number[]): VisionTag[] {
  // A face alone is not enough: blazeface scores animals' faces as high as people's (a dog's 0.72 on the tuning
  // set). A body, or the COCO detector's person, must say it too; faces then only count the people.
  // Faces confirmed one by one (each by the body around it) count only themselves.
  if (!found.body && detectedPersons.length === 0 && found.facesWithBody === 0) return [];
  const confirmedFaces = found.body || detectedPersons.length > 0 ? found.faces : found.facesWithBody;
  const persons = Math.max(confirmedFaces, detectedPersons.length, 1);
  const confidence = Math.max(found.confidence, ...detectedPersons);
  const tags: VisionTag[] = [{ label: persons >= 2 ? 'people' : 'person', confidence, source: 'objects' }];
  if (persons === 1 && found.faces === 1 && found.largestFace >= PORTRAIT_FACE_AREA) {
    tags.push({ label: 'portrait', confidence: found.confidence, source: 'composition' });
  }
  return tags;
}
