/** The quota period containing `now`: the calendar month in UTC, as [start, end). */
export function quotaPeriod(now: Date): { periodStart: Date; periodEnd: Date } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return { periodStart: new Date(Date.UTC(year, month, 1)), periodEnd: new Date(Date.UTC(year, month + 1, 1)) };
}

export function quotaRemaining(quota: number, used: number): number {
  return Math.max(0, quota - used);
}
