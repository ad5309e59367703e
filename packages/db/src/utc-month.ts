/** The UTC calendar month containing `now`: the quota period. */
export function utcMonth(now: Date): { start: Date; end: Date; startDate: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end, startDate: start.toISOString().slice(0, 10) };
}
