import { desc, eq } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { type FilenameSource, filenameHistory } from '../schema';

export type FilenameHistoryEntry = Omit<typeof filenameHistory.$inferSelect, 'seq'>;

export interface NewFilenameHistoryEntry {
  imageId: string;
  oldFilename: string | null;
  newFilename: string;
  source: FilenameSource;
  /** The user who made the change; null for the analyser. */
  by: string | null;
}

const entryColumns = {
  id: filenameHistory.id,
  imageId: filenameHistory.imageId,
  oldFilename: filenameHistory.oldFilename,
  newFilename: filenameHistory.newFilename,
  source: filenameHistory.source,
  by: filenameHistory.by,
  createdAt: filenameHistory.createdAt,
};

export function createFilenameHistoryRepository(db: Database) {
  return {
    /** Callers that change a filename use `images.changeFilename`, which appends in the same transaction. */
    async append(entry: NewFilenameHistoryEntry, tx?: Executor): Promise<FilenameHistoryEntry> {
      const [row] = await (tx ?? db).insert(filenameHistory).values(entry).returning(entryColumns);
      return row!;
    },

    /** Newest first, in the order the changes were made. */
    async listForImage(imageId: string, tx?: Executor): Promise<FilenameHistoryEntry[]> {
      return (tx ?? db)
        .select(entryColumns)
        .from(filenameHistory)
        .where(eq(filenameHistory.imageId, imageId))
        .orderBy(desc(filenameHistory.seq));
    },
  };
}

export type FilenameHistoryRepository = ReturnType<typeof createFilenameHistoryRepository>;
