import type { VisionTag } from '@renamer/contracts';
import type { DecodedImage } from '../decoded-image';
import { nameColours } from './colours';
import { defocusedShare } from './focus';
import { toHsv } from './hsv';
import { nameScene } from './scene';
import { measurePixels } from './statistics';
import { thumbnailOf } from './thumbnail';

/**
 * Dominant colours (source `colour`), and the scene (`scene`), kind of picture (`composition`) and light (`light`)
 * words that pixel statistics support.
 */
export function describePixels(image: DecodedImage): VisionTag[] {
  const statistics = measurePixels(toHsv(thumbnailOf(image)), defocusedShare(image));
  return [...nameColours(statistics), ...nameScene(statistics)];
}
