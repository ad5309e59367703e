import type { VisionTag } from '@renamer/contracts';
import { confidenceBeyond } from './confidence';
import type { PixelStatistics } from './statistics';

/**
 * One scene or light word: said only when its main statistic is past `threshold` (towards `certainAt`, where
 * the confidence reaches 1) and every guard holds. The measurements behind each number are in the README.
 */
interface SceneRule {
  label: string;
  /** `scene` (what the setting shows) unless the word says what kind of picture it is or what its light is. */
  source?: 'composition' | 'light';
  statistic: (s: PixelStatistics) => number;
  threshold: number;
  certainAt: number;
  guards: (s: PixelStatistics) => boolean;
}

/** A flower in focus to its edges: this share of petal colours in the middle, this share of green or dark around. */
const SHARP_FLOWER_PETALS = 0.5;
const SHARP_FLOWER_SURROUND = 0.5;

/** Under a blue sky, still water holds at least this share of blue in the bottom third (README, "Water"). */
const MIRRORED_SKY_BLUE = 0.3;

/** Smaller is stronger for these statistics (fog: low contrast; night: low light). */
const isPast = (value: number, rule: SceneRule) =>
  rule.certainAt >= rule.threshold ? value >= rule.threshold : value <= rule.threshold;

/**
 * A flower seen close: petal colours fill the middle of a close-up whose surroundings are leaves or shadow. Fallen
 * leaves, fruit, a bowl or cups are warm to the edges; a sunset's smooth sky is kept out as the close-up rule keeps
 * it out (README, "Flowers"). A flower whose petals fill half the middle or more needs no blurred background when
 * leaves or shadow fill its surroundings (README, "Flowers, third round").
 */
const FLOWER: SceneRule = {
  label: 'flower',
  statistic: (s) => s.centrePetalShare,
  threshold: 0.3,
  certainAt: 0.6,
  guards: (s) =>
    s.topSkyBlueShare < 0.5 &&
    ((s.defocusedShare >= 0.45 && s.surroundGreenOrDarkShare >= 0.2) ||
      (s.centrePetalShare >= SHARP_FLOWER_PETALS && s.surroundGreenOrDarkShare >= SHARP_FLOWER_SURROUND)),
};

const isFlower = (s: PixelStatistics) => isPast(FLOWER.statistic(s), FLOWER) && FLOWER.guards(s);

/** Almost all of the frame dark, the top too: a dark studio backdrop has a lit subject and is brighter. */
const NIGHT: SceneRule = {
  label: 'night',
  statistic: (s) => s.meanLuma,
  threshold: 0.1,
  certainAt: 0.04,
  guards: (s) => s.darkShare >= 0.8 && s.topLuma <= 0.1,
};

const SCENE_RULES: readonly SceneRule[] = [
  FLOWER,
  {
    // A blue, smooth upper third: a clear sky, or a deep blue one at dusk or twilight. Leaves against the sky are
    // blue too, but textured.
    label: 'sky',
    statistic: (s) => s.topSkyBlueShare + s.topDuskBlueShare,
    threshold: 0.5,
    certainAt: 0.9,
    guards: (s) => s.topTexture <= 0.03,
  },
  {
    // Much white beside blue in a smooth upper third. A white wall or a lamp has no blue beside it.
    label: 'cloud',
    statistic: (s) => s.topWhiteShare,
    threshold: 0.25,
    certainAt: 0.5,
    guards: (s) => s.topSkyBlueShare >= 0.2 && s.topTexture <= 0.03,
  },
  {
    // The sun (or the brightest light) low in the frame with the ground in shade, as at sunrise or sunset: which
    // of the two cannot be told from pixels, hence "golden hour", true of both.
    label: 'golden hour',
    statistic: (s) => s.topLuma - s.bottomLuma,
    threshold: 0.3,
    certainAt: 0.5,
    guards: (s) => s.upperGlareShare >= 0.01 && s.bottomLuma <= 0.2,
  },
  NIGHT,
  {
    // Low contrast and colour over the whole frame, neither dark nor blown out, and little texture.
    label: 'fog',
    statistic: (s) => s.lumaSpread,
    threshold: 0.25,
    certainAt: 0.1,
    guards: (s) => s.meanSaturation <= 0.12 && s.meanLuma >= 0.35 && s.meanLuma <= 0.85 && s.texture <= 0.015,
  },
  {
    // Shaded white ground under a sky or more white: studio white is blown out (excluded from the share) and has no
    // sky above; a tiger in deep snow has white to the top (0.43 of it).
    label: 'snow',
    statistic: (s) => s.lowerSnowShare,
    threshold: 0.5,
    certainAt: 0.8,
    guards: (s) => s.topSkyBlueShare + s.topWhiteShare >= 0.4 && s.meanSaturation <= 0.2,
  },
  {
    // Rust, orange and gold foliage beside what is still green, textured like leaves: an orange object, a wooden
    // room or a warm render is either alone in its colour or smooth. Petals by their leaves are not autumn.
    label: 'autumn',
    statistic: (s) => s.autumnShare,
    threshold: 0.12,
    certainAt: 0.35,
    guards: (s) => s.greenShare >= 0.1 && s.texture >= 0.015 && !isFlower(s),
  },
  {
    // A large share of leaf and grass green with texture (smooth green is paint or a backdrop). Green water (the
    // eagle's shore, 0.20) stays under it; the least green wood is life.jpg's, 0.24.
    label: 'greenery',
    statistic: (s) => s.greenShare,
    threshold: 0.22,
    certainAt: 0.5,
    guards: (s) => s.texture >= 0.02,
  },
  {
    // Green ground under a top that is not green (sky, rock, a ridge): a meadow's grass. Green that fills the frame
    // to the top is a wood, a hedge or leaves seen close, which are not told apart; under flowers, it is their stems.
    label: 'grass',
    statistic: (s) => s.bottomGreenShare,
    threshold: 0.5,
    certainAt: 0.9,
    guards: (s) => s.topGreenShare <= 0.1 && s.texture >= 0.015 && !isFlower(s),
  },
  {
    // Still water: the shore and the sky mirrored below a horizon, smooth on both sides. A rippled lake, a sea or a
    // stream does not mirror, and is not found. Under a blue sky the water is blue too: green hills over a brown
    // field mirror as well as a lake (0.98) but hold no blue below.
    label: 'water',
    statistic: (s) => s.reflection,
    threshold: 0.93,
    certainAt: 0.99,
    guards: (s) =>
      s.topTexture <= 0.03 &&
      s.bottomTexture <= 0.03 &&
      (s.topSkyBlueShare + s.topDuskBlueShare < 0.5 || s.bottomBlueShare >= MIRRORED_SKY_BLUE),
  },
  {
    // Open sky over textured ground: sky (blue, perhaps with cloud) fills the smooth top third, and the bottom third
    // has the texture of land. A picture of the sky alone (the kite) has a smooth bottom too.
    label: 'landscape',
    source: 'composition',
    statistic: (s) => s.topSkyBlueShare + s.topWhiteShare,
    threshold: 0.5,
    certainAt: 0.9,
    guards: (s) => s.topSkyBlueShare >= 0.2 && s.topTexture <= 0.03 && s.bottomTexture >= 0.02,
  },
  {
    // Much of the frame out of focus, as behind a subject seen close; not under a clear sky, whose smooth gradient
    // down to the horizon reads as defocused too (the sunset, the summer night).
    label: 'close-up',
    source: 'composition',
    statistic: (s) => s.defocusedShare,
    threshold: 0.5,
    certainAt: 0.8,
    guards: (s) => s.topSkyBlueShare < 0.5,
  },
  // The night rule's figures, said of the kind of picture.
  { ...NIGHT, label: 'night scene', source: 'composition' },
  {
    // Dim but not night: the darkest tuning photograph, a spruce forest by day, has mean luma 0.15.
    label: 'low light',
    source: 'light',
    statistic: (s) => s.meanLuma,
    threshold: 0.2,
    certainAt: 0.1,
    guards: (s) => !NIGHT.guards(s),
  },
];

/**
 * The scene words (source `scene`), the kind of picture (`composition`) and its light (`light`) that the statistics
 * support, in the order of `SCENE_RULES`.
 */
export function nameScene(statistics: PixelStatistics): VisionTag[] {
  const tags: VisionTag[] = [];
  for (const rule of SCENE_RULES) {
    const value = rule.statistic(statistics);
    if (!isPast(value, rule) || !rule.guards(statistics)) continue;
    tags.push({
      label: rule.label,
      confidence: confidenceBeyond(value, rule.threshold, rule.certainAt),
      source: rule.source ?? 'scene',
    });
  }
  return tags;
}
