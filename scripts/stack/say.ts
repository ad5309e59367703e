const useColour = !process.env.NO_COLOR && (Boolean(process.env.FORCE_COLOR) || process.stderr.isTTY);

const codes = {
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  grey: 90,
  bold: 1,
} as const;

export type Colour = keyof typeof codes;

export function paint(colour: Colour, text: string): string {
  return useColour ? `\u001b[${codes[colour]}m${text}\u001b[0m` : text;
}

/** Width of the `name │` column, so every line of every process lines up. */
const NAME_WIDTH = 9;

export function prefixFor(name: string, colour: Colour): string {
  return `${paint(colour, name.padStart(NAME_WIDTH))} ${paint('grey', '│')} `;
}

const stackPrefix = prefixFor('renamer', 'green');

/** The stack's own progress lines go to stderr, so stdout carries only what the run produces. */
export function say(text: string): void {
  process.stderr.write(`${stackPrefix}${text}\n`);
}

export function warn(text: string): void {
  process.stderr.write(`${stackPrefix}${paint('yellow', text)}\n`);
}

export function elapsedSince(startedAt: number): string {
  const ms = performance.now() - startedAt;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
