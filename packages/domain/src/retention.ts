const DAY_MS = 24 * 3600 * 1000;

/** A batch is never removed by the retention policy sooner than this many days after its date was first shown. */
export const RETENTION_NOTICE_DAYS = 7;

/**
 * When `RETAIN_ORIGINALS_DAYS` (`days`) removes a batch: `days` after it was created, and never sooner than
 * RETENTION_NOTICE_DAYS after the batch list first showed the date (`noticeAt`; null: not shown yet, so it is
 * shown `now`).
 */
export function retentionRemovesAt(createdAt: Date, noticeAt: Date | null, days: number, now: Date): Date {
  const byAge = createdAt.getTime() + days * DAY_MS;
  const byNotice = (noticeAt ?? now).getTime() + RETENTION_NOTICE_DAYS * DAY_MS;
  return new Date(Math.max(byAge, byNotice));
}

/** The bounds of the batches due: created before `createdBefore` and first shown before `noticedBefore`. */
export function retentionCutoffs(days: number, now: Date) {
  return {
    createdBefore: new Date(now.getTime() - days * DAY_MS),
    noticedBefore: new Date(now.getTime() - RETENTION_NOTICE_DAYS * DAY_MS),
  };
}
