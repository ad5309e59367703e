import type { Colour } from './say';

type Paint = (colour: Colour, text: string) => string;
const noPaint: Paint = (_colour, text) => text;

const LEVELS: Record<number, { label: string; colour: Colour }> = {
  10: { label: 'TRACE', colour: 'grey' },
  20: { label: 'DEBUG', colour: 'grey' },
  30: { label: 'INFO', colour: 'green' },
  40: { label: 'WARN', colour: 'yellow' },
  50: { label: 'ERROR', colour: 'red' },
  60: { label: 'FATAL', colour: 'red' },
};

/** Fields every line carries or that the line already shows another way. */
const UNSHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'service', 'v']);

/**
 * One pino JSON line as readable text: time, level, message, then the other fields as key=value; an error's
 * stack follows on its own lines. Anything that is not a pino line comes back unchanged.
 */
export function formatLogLine(line: string, paint: Paint = noPaint): string[] {
  const entry = parsePinoLine(line);
  if (!entry) return [line];
  const level = LEVELS[entry.level as number] ?? { label: String(entry.level), colour: 'grey' };
  const stacks: string[] = [];
  const fields: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (UNSHOWN.has(key)) continue;
    flatten(key, value, fields, stacks);
  }
  const head = [
    paint('grey', formatTime(entry.time)),
    paint(level.colour, level.label.padEnd(5)),
    typeof entry.msg === 'string' ? entry.msg : '',
    fields.length ? paint('grey', fields.join(' ')) : '',
  ].filter(Boolean);
  return [head.join(' '), ...stacks.flatMap((stack) => stack.split('\n').map((text) => `    ${paint('red', text)}`))];
}

function parsePinoLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const entry = JSON.parse(line) as unknown;
    return entry && typeof entry === 'object' && typeof (entry as { level?: unknown }).level === 'number'
      ? (entry as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function flatten(key: string, value: unknown, fields: string[], stacks: string[]): void {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const { stack } = value as { stack?: unknown };
    for (const [childKey, child] of Object.entries(value)) {
      if (typeof stack === 'string' && childKey === 'stack') stacks.push(stack);
      // The stack's first line repeats the message.
      else if (typeof stack !== 'string' || childKey !== 'message')
        flatten(`${key}.${childKey}`, child, fields, stacks);
    }
    return;
  }
  fields.push(`${key}=${formatValue(value)}`);
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

function formatTime(time: unknown): string {
  const date = typeof time === 'string' || typeof time === 'number' ? new Date(time) : new Date();
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  if (Number.isNaN(date.getTime())) return String(time);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}
