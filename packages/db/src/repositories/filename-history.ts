import { asc, eq } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { type FilenameSource, filenameHistory } from '../schema';

export type FilenameHistoryEntry = typeof filenameHistory.$inferSelect;

export interface NewFilenameHistoryEntry {
  imageId: string;
  oldFilename: string | null;
  newFilename: string;
  source: FilenameSource;
}

export function createFilenameHistoryRepository(db: Database) {
  return {
    async append(entry: NewFilenameHistoryEntry, tx?: Executor): Promise<FilenameHistoryEntry> {
      const [row] = await (tx ?? db).insert(filenameHistory).values(entry).returning();
      return row!;
    },

    /** Oldest first. */
    async listForImage(imageId: string, tx?: Executor): Promise<FilenameHistoryEntry[]> {
      return (tx ?? db)
        .select()
        .from(filenameHistory)
        .where(eq(filenameHistory.imageId, imageId))
        .orderBy(asc(filenameHistory.createdAt), asc(filenameHistory.id));
    },
  };
}

export type FilenameHistoryRepository = ReturnType<typeof createFilenameHistoryRepository>;
