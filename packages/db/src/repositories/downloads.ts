import type { DownloadOptions } from '@renamer/contracts';
import { count, desc, eq, getTableColumns, lte, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { keysetPage, type Page, type PageParams } from '../pagination';
import { downloads, images } from '../schema';
import { utcDays } from './utc-days';

export type Download = typeof downloads.$inferSelect;

/** What the copies were made with, and how many images the download holds (1 for an image). */
interface Recorded {
  options?: DownloadOptions;
  entries?: number;
}

export type NewDownload =
  | ({ kind: 'zip'; userId: string; batchId: string; approvedOnly?: boolean; expiresAt: Date } & Recorded)
  | ({ kind: 'image'; userId: string; imageId: string; batchId?: string; expiresAt: Date } & Recorded);

/** Downloads created and bytes sent per UTC day, and over the whole range. */
export interface DownloadActivity {
  total: number;
  bytes: number;
  byDay: { day: string; count: number; bytes: number }[];
}

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

    /**
     * The user's downloads, newest first, a page at a time (keyset on created_at, id, as every list). The batch is
     * the image's for a single image recorded without one; null once the batch was deleted (the record outlives
     * it, its link does not).
     */
    async listPageForUser(userId: string, params: PageParams = {}, tx?: Executor): Promise<Page<Download>> {
      const page = await keysetPage(
        (tx ?? db)
          .select({ ...getTableColumns(downloads), imageBatchId: images.batchId })
          .from(downloads)
          .leftJoin(images, eq(images.id, downloads.imageId))
          .$dynamic(),
        downloads,
        params,
        'desc',
        eq(downloads.userId, userId),
      );
      return {
        items: page.items.map(({ imageBatchId, ...row }) => ({ ...row, batchId: row.batchId ?? imageBatchId })),
        nextCursor: page.nextCursor,
      };
    },

    /**
     * Adds the bytes of one serving of the link (a link may be fetched more than once); `completed` (every byte of
     * the file went out) sets `completed_at` the first time.
     */
    async addBytes(id: string, bytes: number, { completed = false }: { completed?: boolean } = {}, tx?: Executor) {
      await (tx ?? db)
        .update(downloads)
        .set({
          bytes: sql`coalesce(${downloads.bytes}, 0) + ${bytes}::bigint`,
          ...(completed ? { completedAt: sql`coalesce(${downloads.completedAt}, now())` } : {}),
        })
        .where(eq(downloads.id, id));
    },

    /** Downloads asked for in the range (created_at) and the bytes they sent, per UTC day, zeros included. */
    async activity(range: { from: Date; to: Date }, tx?: Executor): Promise<DownloadActivity> {
      const from = range.from.toISOString();
      const to = range.to.toISOString();
      const rows = await (tx ?? db).execute<{ day: string; count: number; bytes: number }>(sql`
        ${utcDays(from, to)},
        asked as (
          select date_trunc('day', ${downloads.createdAt} at time zone 'UTC') as day, count(*) as n,
                 coalesce(sum(${downloads.bytes}), 0) as bytes
          from ${downloads}
          where ${downloads.createdAt} >= ${from}::timestamptz and ${downloads.createdAt} < ${to}::timestamptz
          group by 1
        )
        select to_char(days.day, 'YYYY-MM-DD') as "day",
               coalesce(asked.n, 0)::integer as "count",
               coalesce(asked.bytes, 0)::float8 as "bytes"
        from days left join asked on asked.day = days.day
        order by days.day
      `);
      const byDay = [...rows];
      return {
        total: byDay.reduce((sum, day) => sum + day.count, 0),
        bytes: byDay.reduce((sum, day) => sum + day.bytes, 0),
        byDay,
      };
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
