/** The stack's own lines, on stderr beside the services' lines (each named by its service alike). */
export function say(text: string): void {
  process.stderr.write(`[renamer] ${text}\n`);
}

export const elapsedSince = (startedAt: number) => `${Math.round(performance.now() - startedAt)} ms`;

/** A URL fit for a log line: its password hidden. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}
