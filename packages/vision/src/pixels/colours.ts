import type { VisionTag } from '@renamer/contracts';
import { COLOUR_NAMES, type ColourName } from './colour-names';
import { confidenceBeyond } from './confidence';
import type { PixelStatistics } from './statistics';

/** A colour is named when at least this share of the whole frame has it (see README, "Colours and scene"). */
const COLOUR_MIN_SHARE = 0.15;
/** Brown is also the colour of shade on warm surfaces, so it must cover more before it is named. */
const BROWN_MIN_SHARE = 0.25;
/** At this share the colour is the picture's colour beyond doubt (confidence 1). */
const COLOUR_CERTAIN_SHARE = 0.6;
/** A filename has room for the two main colours at most. */
const MAX_COLOURS = 2;

const minShareOf = (name: ColourName) => (name === 'brown' ? BROWN_MIN_SHARE : COLOUR_MIN_SHARE);

/** The dominant colours (source `colour`), largest share first. */
export function nameColours(statistics: PixelStatistics): VisionTag[] {
  return COLOUR_NAMES.map((name) => ({ name, share: statistics.colourShares[name] }))
    .filter(({ name, share }) => share >= minShareOf(name))
    .sort((a, b) => b.share - a.share)
    .slice(0, MAX_COLOURS)
    .map(({ name, share }) => ({
      label: name,
      confidence: confidenceBeyond(share, minShareOf(name), COLOUR_CERTAIN_SHARE),
      source: 'colour',
    }));
}
