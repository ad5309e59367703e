import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { uploadRejections } from '../schema';

export function createUploadRejectionRepository(db: Database) {
  return {
    /**
     * Adds the codes of one request's refused files to today's (UTC) counts: one statement whatever the
     * number of files, incrementing in place so concurrent uploads never lose a count.
     */
    async record(codes: readonly string[], at: Date, tx?: Executor): Promise<void> {
      if (codes.length === 0) return;
      const perCode = new Map<string, number>();
      for (const code of codes) perCode.set(code, (perCode.get(code) ?? 0) + 1);
      const day = at.toISOString().slice(0, 10);
      await (tx ?? db)
        .insert(uploadRejections)
        .values([...perCode].map(([code, count]) => ({ day, code, count })))
        .onConflictDoUpdate({
          target: [uploadRejections.day, uploadRejections.code],
          set: { count: sql`${uploadRejections.count} + excluded.count` },
        });
    },
  };
}

export type UploadRejectionRepository = ReturnType<typeof createUploadRejectionRepository>;
