import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { images, quotaCredits } from '../schema';

export type QuotaCredit = typeof quotaCredits.$inferSelect;

/** The credits listed on a user for an operator: the newest this many. */
export const QUOTA_CREDITS_SHOWN = 50;

/**
 * The number of images counted in the quota period `[periodStart, periodEnd)` and given back to `userId` since, as a
 * SQL expression: `users.getUsage` and `users.reserveQuota` subtract it from the month's counter, so the figure
 * shown and the figure checked on upload are the same. A credit lowers the month its image was counted in, not the
 * month it was written in.
 */
export function creditsIn(userId: string, periodStart: Date, periodEnd: Date) {
  return sql<number>`(select count(*) from ${quotaCredits} where ${quotaCredits.userId} = ${userId} and ${quotaCredits.countedAt} >= ${periodStart.toISOString()}::timestamptz and ${quotaCredits.countedAt} < ${periodEnd.toISOString()}::timestamptz)::integer`;
}

/**
 * Gives back the quota of images that failed for good through the service's fault: one row per image, for
 * those of `imageIds` that are `failed` (read in the same statement, so call it in the transaction of the
 * status change). The unique index on `image_id` makes a failure reported twice, or an image failing again
 * after a retry, credit once. Returns the ids of the images newly credited.
 */
export async function creditFailedImages(
  executor: Executor,
  imageIds: readonly string[],
  reason: string,
): Promise<string[]> {
  if (imageIds.length === 0) return [];
  const rows = await executor
    .insert(quotaCredits)
    .select(
      executor
        .select({
          id: sql<string>`gen_random_uuid()`.as('id'),
          userId: images.userId,
          imageId: images.id,
          reason: sql<string>`${reason}::text`.as('reason'),
          countedAt: sql<Date>`${images.createdAt}`.as('counted_at'),
          createdAt: sql<Date>`now()`.as('created_at'),
        })
        .from(images)
        .where(and(inArray(images.id, [...imageIds]), eq(images.status, 'failed'))),
    )
    .onConflictDoNothing({ target: quotaCredits.imageId })
    .returning({ imageId: quotaCredits.imageId });
  return rows.flatMap((row) => (row.imageId ? [row.imageId] : []));
}

export function createQuotaCreditRepository(db: Database) {
  return {
    /** See `creditFailedImages`; pass the transaction of the status change. */
    credit(imageIds: readonly string[], reason: string, tx?: Executor): Promise<string[]> {
      return creditFailedImages(tx ?? db, imageIds, reason);
    },

    /** The user's credits, newest first (at most `limit`), for the admin's view of the user. */
    async listForUser(userId: string, limit = QUOTA_CREDITS_SHOWN, tx?: Executor): Promise<QuotaCredit[]> {
      return (tx ?? db)
        .select()
        .from(quotaCredits)
        .where(eq(quotaCredits.userId, userId))
        .orderBy(desc(quotaCredits.createdAt), desc(quotaCredits.id))
        .limit(limit);
    },
  };
}

export type QuotaCreditRepository = ReturnType<typeof createQuotaCreditRepository>;
