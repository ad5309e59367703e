import { count, desc, eq, lte, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { downloads } from '../schema';

export type Download = typeof downloads.$inferSelect;

export type NewDownload =
  | { kind: 'zip'; userId: string; batchId: string; approvedOnly?: boolean; expiresAt: Date }
  | { kind: 'image'; userId: string; imageId: string; expiresAt: Date };

export function createDownloadRepository(db: Database) {
  return {
    async create(input: NewDownload, tx?: Executor): Promise<Download> {
      const [row] = await (tx ?? db).insert(downloads).values(input).returning();
      return row!;
    },

    async findById(id: string, tx?: Executor): Promise<Download | null> {
      const [row] = await (tx ?? db).select().from(downloads).where(eq(downloads.id, id));
      return row ?? null;
    },

    /** The user's download records, newest first. */
    async listForUser(userId: string, tx?: Executor): Promise<Download[]> {
      return (tx ?? db)
        .select()
        .from(downloads)
        .where(eq(downloads.userId, userId))
        .orderBy(desc(downloads.createdAt), desc(downloads.id));
    },

    /** Adds the bytes of one serving of the link (a link may be fetched more than once). */
    async addBytes(id: string, bytes: number, tx?: Executor): Promise<void> {
      await (tx ?? db)
        .update(downloads)
        .set({ bytes: sql`coalesce(${downloads.bytes}, 0) + ${bytes}::bigint` })
        .where(eq(downloads.id, id));
    },

    /** The ids of links expired at `now`, at most `limit`, oldest first, and how many there are. */
    async findExpired(now: Date, limit: number, tx?: Executor): Promise<{ ids: string[]; total: number }> {
      const q = tx ?? db;
      const [rows, [counted]] = await Promise.all([
        q
          .select({ id: downloads.id })
          .from(downloads)
          .where(lte(downloads.expiresAt, now))
          .orderBy(downloads.expiresAt)
          .limit(limit),
        q.select({ total: count() }).from(downloads).where(lte(downloads.expiresAt, now)),
      ]);
      return { ids: rows.map((row) => row.id), total: counted?.total ?? 0 };
    },

    /** Deletes the records of links expired at `now`; returns how many. */
    async deleteExpired(now: Date, tx?: Executor): Promise<number> {
      const deleted = await (tx ?? db)
        .delete(downloads)
        .where(lte(downloads.expiresAt, now))
        .returning({ id: downloads.id });
      return deleted.length;
    },
  };
}

export type DownloadRepository = ReturnType<typeof createDownloadRepository>;
