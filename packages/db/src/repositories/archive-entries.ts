import type { VisionTag } from '@renamer/contracts';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { keysetOrder } from '../pagination';
import { batches, images } from '../schema';

/** Only images with a name of their own go into an archive: failed, queued and cancelled ones have none. */
const DELIVERABLE = ['ready', 'approved'] as const;
const APPROVED_ONLY = ['approved'] as const;

export interface ArchiveEntry {
  imageId: string;
  originalFilename: string;
  filename: string;
  status: (typeof DELIVERABLE)[number];
  approved: boolean;
  checksum: string;
  size: number;
  mimeType: string;
  storageKey: string;
  altText: string | null;
  visionTags: VisionTag[];
}

export interface ArchiveContents {
  batch: { id: string; name: string | null; keywords: string[] };
  /** In upload order. */
  entries: ArchiveEntry[];
}

/**
 * What a batch's archive holds, read in one query: the preview and the archive both call this, so they
 * cannot disagree.
 */
export function createArchiveEntryRepository(db: Database) {
  return {
    /** Null when the batch does not exist or belongs to someone else; `approvedOnly` keeps approved images only. */
    async listForUser(
      batchId: string,
      userId: string,
      { approvedOnly = false }: { approvedOnly?: boolean } = {},
      tx?: Executor,
    ): Promise<ArchiveContents | null> {
      const rows = await (tx ?? db)
        .select({
          batchId: batches.id,
          batchName: batches.name,
          keywords: batches.keywords,
          imageId: images.id,
          originalFilename: images.originalFilename,
          filename: images.filename,
          status: images.status,
          checksum: images.checksum,
          size: images.size,
          mimeType: images.mimeType,
          storageKey: images.storageKey,
          altText: images.altText,
          visionTags: images.visionTags,
        })
        .from(batches)
        .leftJoin(
          images,
          and(
            eq(images.batchId, batches.id),
            inArray(images.status, approvedOnly ? APPROVED_ONLY : DELIVERABLE),
            isNotNull(images.filename),
          ),
        )
        .where(and(eq(batches.id, batchId), eq(batches.userId, userId)))
        .orderBy(...keysetOrder(images, 'asc'));
      const [first] = rows;
      if (!first) return null;
      const entries: ArchiveEntry[] = [];
      for (const row of rows) {
        if (row.imageId === null || row.filename === null) continue;
        const status = row.status as ArchiveEntry['status'];
        entries.push({
          imageId: row.imageId,
          originalFilename: row.originalFilename!,
          filename: row.filename,
          status,
          approved: status === 'approved',
          checksum: row.checksum!,
          size: row.size!,
          mimeType: row.mimeType!,
          storageKey: row.storageKey!,
          altText: row.altText,
          visionTags: row.visionTags ?? [],
        });
      }
      return { batch: { id: first.batchId, name: first.batchName, keywords: first.keywords }, entries };
    },
  };
}

export type ArchiveEntryRepository = ReturnType<typeof createArchiveEntryRepository>;
