import { type BatchStatus, IMAGE_STATUSES, type ImageStatus, type ImageStatusCounts } from '@renamer/contracts';
import { and, asc, count, eq, getTableColumns, inArray, isNull, lt, notInArray, type SQL, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../client';
import { keysetPage, type Page, type PageParams } from '../pagination';
import { apiKeys, batches, images, sessions, users } from '../schema';
import { type ApiKey, activeApiKeyWithHash, apiKeyColumns } from './api-keys';
import { activeSessionWithId, type Session, sessionColumns } from './sessions';
import type { UpdateCondition } from './update-condition';
import { userColumns } from './user-columns';
import type { User } from './users';

export type Batch = typeof batches.$inferSelect;

export interface NewBatch {
  userId: string;
  name?: string | null;
  status?: BatchStatus;
  locale?: string;
  keywords?: string[];
  context?: string | null;
  template?: string | null;
  instructions?: string | null;
  total: number;
}

export type BatchUpdate = Partial<Pick<Batch, 'name' | 'status' | 'total' | 'completedAt'>>;

/** What the person may change of their batch: what its later proposals and keyword suggestions use. */
export type BatchSettings = Partial<
  Pick<Batch, 'name' | 'keywords' | 'context' | 'locale' | 'template' | 'instructions'>
>;

/** A batch with its images counted per status. */
export interface BatchStatusRow {
  batch: Batch;
  counts: ImageStatusCounts;
}

/**
 * The batch's images counted per status: a lateral subquery on `batches.id`, joined with `sql\`true\`` (zeros
 * when there is no batch). Nothing is grouped, so it can ride on a query of wide rows (the status read with the
 * credential, below) at no cost, and pgbench ran it about 20 % faster than a GROUP BY over such a row.
 */
export const imageCountsOfBatch = new QueryBuilder()
  .select(
    Object.fromEntries(
      IMAGE_STATUSES.map((status) => [
        status,
        sql<number>`(count(*) filter (where ${images.status} = ${sql.raw(`'${status}'`)}))::integer`.as(status),
      ]),
    ) as Record<ImageStatus, SQL.Aliased<number>>,
  )
  .from(images)
  .where(eq(images.batchId, batches.id))
  .as('image_counts');

/** The fields of a batch with its counts (`BatchStatusRow`), for a query that joins `imageCountsOfBatch`. */
export const batchStatusFields = {
  batch: getTableColumns(batches),
  counts: { ...imageCountsOfBatch._.selectedFields },
};

/** The batch and its image counts per status, one row; built once. */
const statusForUser = (executor: Executor) =>
  executor
    .select(batchStatusFields)
    .from(batches)
    .leftJoinLateral(imageCountsOfBatch, sql`true`)
    .where(and(eq(batches.id, sql.placeholder('id')), eq(batches.userId, sql.placeholder('userId'))))
    .prepare('batch_status_for_user');

/**
 * The status read of the route scripts poll (`GET /api/batch/:id/status`), made by the statement that checks the
 * caller's credential, so that the read takes one database round trip instead of two: the key (or session) with its
 * user, exactly as `findActiveByHash` (`findActive`) reads them, and the batch named by the `batchId` placeholder
 * joined on that user, with its counts. Nobody else's batch can come back, and the caller uses nothing of the row
 * unless the credential holds. Measured with `npm run bench -- http` (docs/benchmarks.md, "Authenticated read under
 * load"): two statements instead of this one cost the read a quarter of its requests per second.
 */
const withBatchStatus = { ...batchStatusFields, user: userColumns };
const batchOfCredentialUser = and(eq(batches.id, sql.placeholder('batchId')), eq(batches.userId, users.id));

const statusWithApiKey = (db: Database) =>
  db
    .select({ apiKey: apiKeyColumns, ...withBatchStatus })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(batches, batchOfCredentialUser)
    .leftJoinLateral(imageCountsOfBatch, sql`true`)
    .where(activeApiKeyWithHash())
    .prepare('batch_status_with_api_key');

const statusWithSession = (db: Database) =>
  db
    .select({ session: sessionColumns, ...withBatchStatus })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(batches, batchOfCredentialUser)
    .leftJoinLateral(imageCountsOfBatch, sql`true`)
    .where(activeSessionWithId())
    .prepare('batch_status_with_session');

/** A credential's row carrying the batch's status: the credential with its user, and the status as `read`. */
function splitStatus<Row extends BatchStatusFieldsRow>({ batch, counts, ...credential }: Row) {
  // drizzle gives a left-joined table's columns as null when there is no such row.
  return { ...credential, read: batch ? { batch, counts } : null };
}
type BatchStatusFieldsRow = { batch: Batch | null; counts: ImageStatusCounts };

/** The bounds of the batches `RETAIN_ORIGINALS_DAYS` removes: created before `createdBefore`, first shown before `noticedBefore`. */
export interface RetentionCutoffs {
  createdBefore: Date;
  noticedBefore: Date;
}

/** An image the retention policy removed: what is needed to remove its objects. */
export interface RetainedImage {
  id: string;
  userId: string;
  storageKey: string;
}

/** Batches due for removal; a batch still at work (queued or processing) is left for the stale-batches task first. */
const retentionDue = ({ createdBefore, noticedBefore }: RetentionCutoffs) =>
  and(
    lt(batches.createdAt, createdBefore),
    lt(batches.retentionNoticeAt, noticedBefore),
    notInArray(batches.status, ['queued', 'processing']),
  );

export function createBatchRepository(db: Database) {
  const statusForUserOnPool = statusForUser(db);
  const statusWithApiKeyOnPool = statusWithApiKey(db);
  const statusWithSessionOnPool = statusWithSession(db);
  return {
    async create(input: NewBatch, tx?: Executor): Promise<Batch> {
      const [row] = await (tx ?? db).insert(batches).values(input).returning();
      return row!;
    },

    /** For internal callers (worker, admin). Requests on behalf of a user use `findByIdForUser`. */
    async findById(id: string, tx?: Executor): Promise<Batch | null> {
      const [row] = await (tx ?? db).select().from(batches).where(eq(batches.id, id));
      return row ?? null;
    },

    /** Null when the batch does not exist or belongs to someone else. */
    async findByIdForUser(id: string, userId: string, tx?: Executor): Promise<Batch | null> {
      const [row] = await (tx ?? db)
        .select()
        .from(batches)
        .where(and(eq(batches.id, id), eq(batches.userId, userId)));
      return row ?? null;
    },

    /** The batch and its image counts per status in one query; null when it does not exist or is someone else's. */
    async findStatusForUser(id: string, userId: string, tx?: Executor): Promise<BatchStatusRow | null> {
      const [row] = await (tx ? statusForUser(tx) : statusForUserOnPool).execute({ id, userId });
      return row ?? null;
    },

    /**
     * The API key with hash `keyHash`, active at `now`, with its user, and the status of batch `batchId` when it is
     * that user's (`read`, else null); null when the key is not active. Checking a ban is the caller's call.
     */
    async findStatusWithApiKey(
      keyHash: string,
      now: Date,
      batchId: string,
    ): Promise<{ apiKey: ApiKey; user: User; read: BatchStatusRow | null } | null> {
      const [row] = await statusWithApiKeyOnPool.execute({ keyHash, now: now.toISOString(), batchId });
      return row ? splitStatus(row) : null;
    },

    /** The same for a session with id `sessionId`. */
    async findStatusWithSession(
      sessionId: string,
      now: Date,
      batchId: string,
    ): Promise<{ session: Session; user: User; read: BatchStatusRow | null } | null> {
      const [row] = await statusWithSessionOnPool.execute({ id: sessionId, now: now.toISOString(), batchId });
      return row ? splitStatus(row) : null;
    },

    /** Newest first. */
    async listForUser(userId: string, params: PageParams = {}, tx?: Executor): Promise<Page<Batch>> {
      return keysetPage(
        (tx ?? db).select().from(batches).$dynamic(),
        batches,
        params,
        'desc',
        eq(batches.userId, userId),
      );
    },

    async update(
      id: string,
      update: BatchUpdate,
      condition: UpdateCondition<BatchStatus> = {},
      tx?: Executor,
    ): Promise<Batch | null> {
      const [row] = await (tx ?? db)
        .update(batches)
        .set(update)
        .where(
          and(eq(batches.id, id), condition.expectStatus ? inArray(batches.status, condition.expectStatus) : undefined),
        )
        .returning();
      return row ?? null;
    },

    /** Null when the batch does not exist or is someone else's. */
    async updateSettingsForUser(id: string, userId: string, settings: BatchSettings, tx?: Executor) {
      const [row] = await (tx ?? db)
        .update(batches)
        .set(settings)
        .where(and(eq(batches.id, id), eq(batches.userId, userId)))
        .returning({ id: batches.id });
      return row ?? null;
    },

    /**
     * Batches still queued or processing none of whose images changed since `before` (nor the batch itself),
     * oldest first: stuck, since a batch at work changes an image every few seconds.
     */
    async listStuck(before: Date, limit: number, tx?: Executor): Promise<Batch[]> {
      return (tx ?? db)
        .select()
        .from(batches)
        .where(
          and(
            inArray(batches.status, ['queued', 'processing']),
            lt(batches.updatedAt, before),
            sql`not exists (select 1 from ${images} where ${images.batchId} = ${batches.id} and ${images.updatedAt} >= ${before.toISOString()}::timestamptz)`,
          ),
        )
        .orderBy(asc(batches.updatedAt))
        .limit(limit);
    },

    /** Batches left in one of `statuses` since before `updatedBefore`, oldest first. */
    async listStale(
      statuses: readonly BatchStatus[],
      updatedBefore: Date,
      limit = 100,
      tx?: Executor,
    ): Promise<Batch[]> {
      return (tx ?? db)
        .select()
        .from(batches)
        .where(and(inArray(batches.status, statuses), lt(batches.updatedAt, updatedBefore)))
        .orderBy(asc(batches.updatedAt))
        .limit(limit);
    },

    /**
     * Records that the batch list showed these batches' removal date now (`at`), for those whose date was never
     * shown, in one statement; returns the moments recorded, by batch id.
     */
    async noteRetentionShown(ids: readonly string[], at: Date, tx?: Executor): Promise<Map<string, Date>> {
      if (ids.length === 0) return new Map();
      const rows = await (tx ?? db)
        .update(batches)
        .set({ retentionNoticeAt: at })
        .where(and(inArray(batches.id, [...ids]), isNull(batches.retentionNoticeAt)))
        .returning({ id: batches.id, retentionNoticeAt: batches.retentionNoticeAt });
      return new Map(rows.map((row) => [row.id, row.retentionNoticeAt!]));
    },

    /** How many images the retention policy would remove now, and the ids of a few. */
    async findRetentionDue(
      cutoffs: RetentionCutoffs,
      sampleSize: number,
      tx?: Executor,
    ): Promise<{ total: number; ids: string[] }> {
      const executor = tx ?? db;
      const [[counted], sample] = await Promise.all([
        executor
          .select({ total: count() })
          .from(images)
          .innerJoin(batches, eq(batches.id, images.batchId))
          .where(retentionDue(cutoffs)),
        executor
          .select({ id: images.id })
          .from(images)
          .innerJoin(batches, eq(batches.id, images.batchId))
          .where(retentionDue(cutoffs))
          .orderBy(asc(batches.createdAt), asc(images.id))
          .limit(sampleSize),
      ]);
      return { total: counted?.total ?? 0, ids: sample.map((row) => row.id) };
    },

    /**
     * Removes the images of at most `limit` batches due (oldest first), then those batches once empty, in one
     * transaction; rows another run holds are skipped, so two runs never remove the same image. Returns the
     * images removed (their objects are the caller's) and how many batches were taken.
     */
    async deleteRetentionDue(
      cutoffs: RetentionCutoffs,
      limit: number,
    ): Promise<{ batches: number; images: RetainedImage[] }> {
      return db.transaction(async (tx) => {
        const due = await tx
          .select({ id: batches.id })
          .from(batches)
          .where(retentionDue(cutoffs))
          .orderBy(asc(batches.createdAt))
          .limit(limit)
          .for('update', { skipLocked: true });
        if (due.length === 0) return { batches: 0, images: [] };
        const ids = due.map((row) => row.id);
        const removed = await tx
          .delete(images)
          .where(inArray(images.batchId, ids))
          .returning({ id: images.id, userId: images.userId, storageKey: images.storageKey });
        await tx
          .delete(batches)
          .where(
            and(
              inArray(batches.id, ids),
              sql`not exists (select 1 from ${images} where ${images.batchId} = ${batches.id})`,
            ),
          );
        return { batches: due.length, images: removed };
      });
    },

    /** Deletes the batch (and by cascade its images) only if it belongs to the user. */
    async delete(id: string, userId: string, tx?: Executor): Promise<boolean> {
      const deleted = await (tx ?? db)
        .delete(batches)
        .where(and(eq(batches.id, id), eq(batches.userId, userId)))
        .returning({ id: batches.id });
      return deleted.length > 0;
    },
  };
}

export type BatchRepository = ReturnType<typeof createBatchRepository>;
