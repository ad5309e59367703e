/** The plain colour words a filename may carry, by hue. Grey, black and white are not named from pixels. */
export const COLOUR_NAMES = ['red', 'orange', 'brown', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'] as const;
export type ColourName = (typeof COLOUR_NAMES)[number];

/** Below these a pixel is grey or dark, and its hue says nothing a viewer would call a colour. */
const MIN_SATURATION = 0.25;
const MIN_VALUE = 0.25;

const RED = COLOUR_NAMES.indexOf('red');
const ORANGE = COLOUR_NAMES.indexOf('orange');
const BROWN = COLOUR_NAMES.indexOf('brown');
const YELLOW = COLOUR_NAMES.indexOf('yellow');
const GREEN = COLOUR_NAMES.indexOf('green');
const TEAL = COLOUR_NAMES.indexOf('teal');
const BLUE = COLOUR_NAMES.indexOf('blue');
const PURPLE = COLOUR_NAMES.indexOf('purple');
const PINK = COLOUR_NAMES.indexOf('pink');

/**
 * The index in `COLOUR_NAMES` of one pixel's colour word (hue in degrees, saturation and value in 0..1), or -1
 * when it is grey, dark, or between words: light, muted orange (tan, beige: wood floors, skin) and dark yellow
 * (olive: leaves in shade) are named neither brown nor orange, yellow nor green, because viewers disagree.
 */
export function colourIndexOf(hue: number, saturation: number, value: number): number {
  if (saturation < MIN_SATURATION || value < MIN_VALUE) return -1;
  if (hue < 15 || hue >= 345) return saturation < 0.5 && value > 0.8 ? PINK : RED;
  if (hue < 45) {
    if (value < 0.6) return BROWN;
    return saturation >= 0.6 ? ORANGE : -1;
  }
  if (hue < 70) return value >= 0.6 ? YELLOW : -1;
  if (hue < 165) return GREEN;
  if (hue < 195) return TEAL;
  if (hue < 260) return BLUE;
  if (hue < 290) return PURPLE;
  return PINK;
}
