/** The stack's own lines, on stderr beside the services' lines (which concurrently prefixes alike). */
export function say(text: string): void {
  process.stderr.write(`[renamer] ${text}\n`);
}

export function elapsedSince(startedAt: number): string {
  const ms = performance.now() - startedAt;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A URL fit for a log line: its password hidden. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}
