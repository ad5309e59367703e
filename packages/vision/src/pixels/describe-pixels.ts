import type { VisionTag } from '@renamer/contracts';
import type { DecodedImage } from '../decoded-image';
import { nameColours } from './colours';
import { toHsv } from './hsv';
import { nameScene } from './scene';
import { measurePixels } from './statistics';
import { thumbnailOf } from './thumbnail';

/** Dominant colours (source `colour`) and the scene and light words (source `scene`) pixel statistics support. */
export function describePixels(image: DecodedImage): VisionTag[] {
  const statistics = measurePixels(toHsv(thumbnailOf(image)));
  return [...nameColours(statistics), ...nameScene(statistics)];
}
