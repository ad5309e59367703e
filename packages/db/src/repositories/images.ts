import {
  type BatchStatus,
  emptyImageStatusCounts,
  type ImageMetadata,
  type ImageStatus,
  type ImageStatusCounts,
  type SeoScore,
  type VisionTag,
} from '@renamer/contracts';
import { and, asc, eq, inArray, like, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { escapeLikePattern } from '../like-pattern';
import {
  decodeRankedCursor,
  encodeRankedCursor,
  keysetOrder,
  keysetPage,
  type Page,
  type PageParams,
  pageSize,
} from '../pagination';
import { batches, type FilenameSource, filenameHistory, images, quotaCredits } from '../schema';
import { creditFailedImages } from './quota-credits';
import type { UpdateCondition } from './update-condition';

export type Image = typeof images.$inferSelect;

export interface NewImage {
  /** Given when the caller needs the id before the row exists (the object key holds it). */
  id?: string;
  batchId: string;
  userId: string;
  originalFilename: string;
  /** SHA-256 of the bytes, lowercase hex. */
  checksum: string;
  size: number;
  mimeType: string;
  storageKey: string;
  status?: ImageStatus;
  filename?: string | null;
  metadata?: ImageMetadata | null;
  /**
   * A file the user already holds, uploaded again on purpose (`duplicates=allow`): left out of the one-file-per-user
   * unique index, which keeps every other image's file unique.
   */
  reupload?: boolean;
}

export type ImageUpdate = Partial<
  Pick<
    Image,
    | 'status'
    | 'proposedFilename'
    | 'filename'
    | 'approvedAt'
    | 'metadata'
    | 'visionTags'
    | 'altText'
    | 'seo'
    | 'safety'
    | 'perceptualHash'
    | 'analysisSteps'
    | 'error'
    | 'attempts'
  >
>;

/** A new filename, who gave it, and what changes with it (a status, the analysis result). */
export interface NewFilename {
  filename: string;
  source: FilenameSource;
  /** The user who made the change; null for the analyser. */
  by: string | null;
  set?: Omit<ImageUpdate, 'filename'>;
}

/** A better proposal for an image found when its batch is named as a whole. */
export interface ProposalRename {
  id: string;
  /** The proposal it replaces: the rename happens only while the image still carries it, untouched. */
  from: string;
  filename: string;
  seo: SeoScore;
  /** The image's tags with the batch's current words, when it is named again. */
  visionTags?: VisionTag[];
  /** Its alt text written again with them; absent leaves it as it is. */
  altText?: string | null;
}

export interface ImageListParams extends PageParams {
  status?: ImageStatus;
  /** `upload` (the default): the order the files were sent; `score`: the lowest SEO score first, unscored last. */
  sort?: 'upload' | 'score';
}

/** The sort key of `sort: 'score'`: images not yet scored come after every score (0..100). */
const scoreRank = sql<number>`coalesce((${images.seo} ->> 'score')::integer, 101)`;

export interface ChecksumMatch {
  checksum: string;
  /** The user's earliest image with this checksum. */
  imageId: string;
}

export function createImageRepository(db: Database) {
  return {
    /** One INSERT for the whole list. Match returned rows to inputs by `storageKey` (unique). */
    async insertMany(inputs: readonly NewImage[], tx?: Executor): Promise<Image[]> {
      if (inputs.length === 0) return [];
      // One millisecond apart (the columns' precision) in the order given, so that the batch's order (created_at,
      // then id) is the upload's: the preview, the ZIP and the image list follow the order the files were sent in.
      const inOrder = inputs.map((input, index) => ({
        ...input,
        createdAt: sql`now() + ${index} * interval '1 millisecond'`,
      }));
      return (tx ?? db).insert(images).values(inOrder).returning();
    },

    /** The image's position in its batch's upload order (created_at, then id), from 1: a template's `{seq}`. */
    async positionInBatch(image: Pick<Image, 'batchId' | 'id'>, tx?: Executor): Promise<number> {
      // Compared with the stored time itself: a JavaScript Date would drop its microseconds.
      const [row] = await (tx ?? db)
        .select({ before: sql<number>`count(*)::int` })
        .from(images)
        .where(
          and(
            eq(images.batchId, image.batchId),
            sql`(${images.createdAt}, ${images.id}) < (select i.created_at, i.id from images i where i.id = ${image.id})`,
          ),
        );
      return (row?.before ?? 0) + 1;
    },

    /** For internal callers (worker, admin). Requests on behalf of a user use `findByIdForUser`. */
    async findById(id: string, tx?: Executor): Promise<Image | null> {
      const [row] = await (tx ?? db).select().from(images).where(eq(images.id, id));
      return row ?? null;
    },

    /** Null when the image does not exist or belongs to someone else. */
    async findByIdForUser(id: string, userId: string, tx?: Executor): Promise<Image | null> {
      const [row] = await (tx ?? db)
        .select()
        .from(images)
        .where(and(eq(images.id, id), eq(images.userId, userId)));
      return row ?? null;
    },

    /**
     * One page of a user's batch in a stable order (upload order, or score then upload order); empty for
     * another user's batch.
     */
    async listByBatch(
      batchId: string,
      userId: string,
      params: ImageListParams = {},
      tx?: Executor,
    ): Promise<Page<Image>> {
      const filters = [
        eq(images.batchId, batchId),
        eq(images.userId, userId),
        params.status ? eq(images.status, params.status) : undefined,
      ];
      if (params.sort !== 'score')
        return keysetPage((tx ?? db).select().from(images).$dynamic(), images, params, 'asc', ...filters);
      const size = pageSize(params.limit);
      const after = params.cursor ? decodeRankedCursor(params.cursor) : undefined;
      const rows = await (tx ?? db)
        .select({ image: images, rank: scoreRank })
        .from(images)
        .where(
          and(
            ...filters,
            after
              ? sql`(${scoreRank}, ${images.createdAt}, ${images.id}) > (${after.rank}, ${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(scoreRank, ...keysetOrder(images, 'asc'))
        .limit(size + 1);
      const page = rows.slice(0, size);
      const last = page.at(-1);
      return {
        items: page.map((row) => row.image),
        nextCursor:
          rows.length > size && last
            ? encodeRankedCursor({ rank: last.rank, createdAt: last.image.createdAt, id: last.image.id })
            : null,
      };
    },

    /** Every image of the batch in upload order (preview, ZIP, processing), optionally only some states. */
    async listAllByBatch(batchId: string, statuses?: readonly ImageStatus[], tx?: Executor): Promise<Image[]> {
      return (tx ?? db)
        .select()
        .from(images)
        .where(and(eq(images.batchId, batchId), statuses ? inArray(images.status, statuses) : undefined))
        .orderBy(...keysetOrder(images, 'asc'));
    },

    /** Which of `checksums` the user already has, in one query. */
    async findDuplicateChecksums(
      userId: string,
      checksums: readonly string[],
      tx?: Executor,
    ): Promise<ChecksumMatch[]> {
      if (checksums.length === 0) return [];
      return (tx ?? db)
        .selectDistinctOn([images.checksum], { checksum: images.checksum, imageId: images.id })
        .from(images)
        .where(and(eq(images.userId, userId), inArray(images.checksum, checksums)))
        .orderBy(images.checksum, images.createdAt, images.id);
    },

    /** The batch's filenames that start with `stem` (the name and its numbered variants), in one query. */
    async filenamesStartingWith(
      batchId: string,
      stem: string,
      exceptImageId?: string,
      tx?: Executor,
    ): Promise<string[]> {
      const rows = await (tx ?? db)
        .select({ filename: images.filename })
        .from(images)
        .where(
          and(
            eq(images.batchId, batchId),
            like(images.filename, `${escapeLikePattern(stem)}%`),
            exceptImageId ? ne(images.id, exceptImageId) : undefined,
          ),
        );
      return rows.flatMap((row) => (row.filename ? [row.filename] : []));
    },

    /** Whether another image of the batch already holds `filename`. */
    async isFilenameTaken(batchId: string, filename: string, exceptImageId?: string, tx?: Executor): Promise<boolean> {
      const [row] = await (tx ?? db)
        .select({ id: images.id })
        .from(images)
        .where(
          and(
            eq(images.batchId, batchId),
            eq(images.filename, filename),
            exceptImageId ? ne(images.id, exceptImageId) : undefined,
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Status counts of several batches in one grouped query (batches without images are absent). */
    async countByStatusForBatches(batchIds: readonly string[], tx?: Executor): Promise<Map<string, ImageStatusCounts>> {
      const result = new Map<string, ImageStatusCounts>();
      if (batchIds.length === 0) return result;
      const rows = await (tx ?? db)
        .select({ batchId: images.batchId, status: images.status, count: sql<number>`count(*)::integer` })
        .from(images)
        .where(inArray(images.batchId, [...batchIds]))
        .groupBy(images.batchId, images.status);
      for (const row of rows) {
        const counts = result.get(row.batchId) ?? emptyImageStatusCounts();
        counts[row.status] = row.count;
        result.set(row.batchId, counts);
      }
      return result;
    },

    /** Image counts of the batch per status, zero for absent states. */
    async countByStatus(batchId: string, tx?: Executor): Promise<ImageStatusCounts> {
      const rows = await (tx ?? db)
        .select({ status: images.status, count: sql<number>`count(*)::integer` })
        .from(images)
        .where(eq(images.batchId, batchId))
        .groupBy(images.status);
      const counts = emptyImageStatusCounts();
      for (const row of rows) counts[row.status] = row.count;
      return counts;
    },

    async update(
      id: string,
      update: ImageUpdate,
      condition: UpdateCondition<ImageStatus> = {},
      tx?: Executor,
    ): Promise<Image | null> {
      const [row] = await (tx ?? db)
        .update(images)
        .set(update)
        .where(
          and(eq(images.id, id), condition.expectStatus ? inArray(images.status, condition.expectStatus) : undefined),
        )
        .returning();
      return row ?? null;
    },

    /**
     * Fails the image for good (`failed`, with `error`) while it is in one of `from`; with `credit` (the reason the
     * service was at fault) its quota is given back in the same transaction, once per image however often the
     * failure is reported. Null when the image was not in one of `from`, or is gone: then nothing is credited.
     */
    async failForGood(
      id: string,
      failure: { from: readonly ImageStatus[]; error: string; credit?: string },
      tx?: Executor,
    ): Promise<Image | null> {
      return (tx ?? db).transaction(async (inner) => {
        const [row] = await inner
          .update(images)
          .set({ status: 'failed', error: failure.error })
          .where(and(eq(images.id, id), inArray(images.status, failure.from)))
          .returning();
        if (row && failure.credit) await creditFailedImages(inner, [row.id], failure.credit);
        return row ?? null;
      });
    },

    /**
     * Gives the image a new filename (with `change.set`) and appends the change to its history in the same
     * transaction, while the image is in one of `condition.expectStatus`; null when it is not, or is gone.
     * A name another image of the batch holds throws the violation of UNIQUE_FILENAME_PER_BATCH and leaves
     * everything as it was (inside a caller's transaction too: the change runs in a savepoint of its own).
     */
    async changeFilename(
      id: string,
      change: NewFilename,
      condition: UpdateCondition<ImageStatus> = {},
      tx?: Executor,
    ): Promise<Image | null> {
      return (tx ?? db).transaction(async (inner) => {
        const [before] = await inner
          .select({ filename: images.filename })
          .from(images)
          .where(
            and(eq(images.id, id), condition.expectStatus ? inArray(images.status, condition.expectStatus) : undefined),
          )
          .for('update');
        if (!before) return null;
        const [row] = await inner
          .update(images)
          .set({ ...change.set, filename: change.filename })
          .where(eq(images.id, id))
          .returning();
        await inner.insert(filenameHistory).values({
          imageId: id,
          oldFilename: before.filename,
          newFilename: change.filename,
          source: change.source,
          by: change.by,
          // The moment of the change, after the row lock was granted, not when the transaction began.
          createdAt: sql`clock_timestamp()`,
        });
        return row ?? null;
      });
    },

    /**
     * Claims the image for an analysis attempt (the domain's `claim` event: queued, or processing for a
     * job run again, becomes processing) and counts the attempt. Null when it is in any other state
     * (cancelled meanwhile, say).
     */
    async startAttempt(
      id: string,
      claim: { from: readonly ImageStatus[]; to: ImageStatus },
      tx?: Executor,
    ): Promise<Image | null> {
      const [row] = await (tx ?? db)
        .update(images)
        .set({ status: claim.to, attempts: sql`${images.attempts} + 1` })
        .where(and(eq(images.id, id), inArray(images.status, claim.from)))
        .returning();
      return row ?? null;
    },

    /**
     * Moves every image of the batch that is in one of `from` to `to` (cancel, retry, approve all), or only
     * those of `imageIds` among them, applying `set` to the same rows: one statement. Returns the ids of the
     * images that changed. With `credit` (images failed for good through the service's fault, the reason), their
     * quota is given back in the same transaction.
     */
    async transitionByBatch(
      batchId: string,
      transition: {
        from: readonly ImageStatus[];
        to: ImageStatus;
        set?: Omit<ImageUpdate, 'status'>;
        imageIds?: readonly string[];
        /** Give the moved images' quota back, for this reason (they failed for good through the service). */
        credit?: string;
        /** Take back the quota given for the moved images (they are analysed again: a retry). */
        uncredit?: boolean;
      },
      tx?: Executor,
    ): Promise<string[]> {
      const move = async (executor: Executor) => {
        const changed = await executor
          .update(images)
          .set({ ...transition.set, status: transition.to })
          .where(
            and(
              eq(images.batchId, batchId),
              inArray(images.status, transition.from),
              transition.imageIds ? inArray(images.id, [...transition.imageIds]) : undefined,
            ),
          )
          .returning({ id: images.id });
        return changed.map((row) => row.id);
      };
      const { credit, uncredit } = transition;
      if (!credit && !uncredit) return move(tx ?? db);
      return (tx ?? db).transaction(async (inner) => {
        const changed = await move(inner);
        if (credit) await creditFailedImages(inner, changed, credit);
        if (uncredit && changed.length > 0) {
          await inner.delete(quotaCredits).where(inArray(quotaCredits.imageId, changed));
        }
        return changed;
      });
    },

    /**
     * Gives `ready` images whose filename is still the analyser's proposal `change.from` their new proposals,
     * with their history rows, in one transaction; images a person renamed, approved or that changed status
     * meanwhile are left alone, unless `includeEdited` (then any `ready` or `approved` image still named
     * `change.from` is renamed, and an approved one goes back to `ready`). Names may move between the images (a swap), so the old names are released
     * first. A name taken meanwhile by another image throws the violation of UNIQUE_FILENAME_PER_BATCH and
     * changes nothing. Returns the renamed images.
     */
    async renameProposals(
      batchId: string,
      changes: readonly ProposalRename[],
      {
        includeEdited = false,
        batchStatuses,
      }: { includeEdited?: boolean; batchStatuses?: readonly BatchStatus[] } = {},
      tx?: Executor,
    ): Promise<Image[]> {
      if (changes.length === 0) return [];
      return (tx ?? db).transaction(async (inner) => {
        if (batchStatuses) {
          // Held for the transaction: a cancel or a finish meanwhile waits, and a batch that moved on is left alone.
          const [batch] = await inner
            .select({ status: batches.status })
            .from(batches)
            .where(eq(batches.id, batchId))
            .for('share');
          if (!batch || !batchStatuses.includes(batch.status)) return [];
        }
        const untouched = await inner
          .select({ id: images.id, filename: images.filename })
          .from(images)
          .where(
            and(
              eq(images.batchId, batchId),
              inArray(
                images.id,
                changes.map((change) => change.id),
              ),
              includeEdited
                ? inArray(images.status, ['ready', 'approved'])
                : and(eq(images.status, 'ready'), sql`${images.filename} = ${images.proposedFilename}`),
            ),
          )
          .for('update');
        const current = new Map(untouched.map((row) => [row.id, row.filename]));
        const live = changes.filter((change) => current.get(change.id) === change.from);
        if (live.length === 0) return [];
        const ids = live.map((change) => change.id);
        await inner.update(images).set({ filename: null }).where(inArray(images.id, ids));
        const byId = (value: (change: ProposalRename) => SQL) =>
          sql.join(
            [
              sql`case ${images.id}`,
              ...live.map((change) => sql`when ${change.id}::uuid then ${value(change)}`),
              sql`end`,
            ],
            sql` `,
          );
        const filename = byId((change) => sql`${change.filename}`);
        const renamed = await inner
          .update(images)
          .set({
            filename,
            proposedFilename: filename,
            seo: byId((change) => sql`${JSON.stringify(change.seo)}::jsonb`),
            visionTags: byId((change) =>
              change.visionTags ? sql`${JSON.stringify(change.visionTags)}::jsonb` : sql`${images.visionTags}`,
            ),
            altText: byId((change) => (change.altText === undefined ? sql`${images.altText}` : sql`${change.altText}`)),
            ...(includeEdited && { status: 'ready' as const, approvedAt: null }),
          })
          .where(inArray(images.id, ids))
          .returning();
        await inner.insert(filenameHistory).values(
          live.map((change) => ({
            imageId: change.id,
            oldFilename: change.from,
            newFilename: change.filename,
            source: 'proposal' as const,
            by: null,
            createdAt: sql`clock_timestamp()`,
          })),
        );
        return renamed;
      });
    },

    /** Images left in one of `statuses` since before `updatedBefore`, oldest first (the re-queue reconciler). */
    async listStale(
      statuses: readonly ImageStatus[],
      updatedBefore: Date,
      limit = 100,
      /** The last image of the previous page, to read the next one. */
      after?: Pick<Image, 'id' | 'updatedAt'>,
      tx?: Executor,
    ): Promise<Image[]> {
      return (tx ?? db)
        .select()
        .from(images)
        .where(
          and(
            inArray(images.status, statuses),
            lt(images.updatedAt, updatedBefore),
            after
              ? sql`(${images.updatedAt}, ${images.id}) > (${after.updatedAt.toISOString()}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(asc(images.updatedAt), asc(images.id))
        .limit(limit);
    },

    /** Which of `keys` are the stored originals of images, in one query. */
    async referencedStorageKeys(keys: readonly string[], tx?: Executor): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await (tx ?? db)
        .select({ key: images.storageKey })
        .from(images)
        .where(inArray(images.storageKey, [...keys]));
      return new Set(rows.map((row) => row.key));
    },

    /** Which of these images exist, each with its owner as given, in one query. */
    async existingIds(owned: readonly { id: string; userId: string }[], tx?: Executor): Promise<Set<string>> {
      if (owned.length === 0) return new Set();
      const rows = await (tx ?? db)
        .select({ id: images.id })
        .from(images)
        .where(
          sql`(${images.id}, ${images.userId}) in (select * from unnest(${sql.param(owned.map((o) => o.id))}::uuid[], ${sql.param(owned.map((o) => o.userId))}::uuid[]))`,
        );
      return new Set(rows.map((row) => row.id));
    },

    /** Storage keys of all the user's images: the objects to remove when the account is deleted. */
    async listStorageKeysForUser(userId: string, tx?: Executor): Promise<string[]> {
      const rows = await (tx ?? db)
        .select({ storageKey: images.storageKey })
        .from(images)
        .where(eq(images.userId, userId));
      return rows.map((row) => row.storageKey);
    },
  };
}

export type ImageRepository = ReturnType<typeof createImageRepository>;
