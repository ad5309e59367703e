import {
  AppError,
  type DuplicatesMode,
  type ErrorCode,
  type RejectedFile,
  type UploadResponse,
} from '@renamer/contracts';
import {
  type BatchRepository,
  type Database,
  type ImageRepository,
  isUniqueViolation,
  type NewBatch,
  UNIQUE_FILE_PER_USER,
  type UserRepository,
} from '@renamer/db';
import { quotaRemaining } from '@renamer/domain';
import type { BatchScheduler } from '@renamer/jobs';
import type { CallLog } from '@renamer/runtime';
import { imageObjectKey, type ObjectStore } from '@renamer/storage';
import type { AcceptedFile, CheckedFiles } from './upload-checks';

export interface CommitDeps {
  db: Pick<Database, 'transaction'>;
  users: Pick<UserRepository, 'reserveQuota' | 'getUsage'>;
  batches: Pick<BatchRepository, 'create'>;
  images: Pick<ImageRepository, 'insertMany' | 'findDuplicateChecksums'>;
  store: Pick<ObjectStore, 'putFile' | 'deleteMany'>;
  scheduler: Pick<BatchScheduler, 'schedule'>;
  now: () => Date;
}

/** The new batch's own settings: what the upload said, the account's defaults where it said nothing. */
export type NewBatchSettings = Pick<NewBatch, 'name' | 'locale' | 'keywords' | 'context' | 'template' | 'instructions'>;

/**
 * Commits the accepted files of a checked upload as a new batch: files equal to an image the user already has are
 * refused (`duplicates: 'refuse'`) or kept as re-uploads (`'allow'`: rows with `reupload`, each with an object of
 * its own, so deleting either image never takes bytes the other needs), then the quota is checked, the objects are
 * stored and the rows committed in one transaction, then the jobs are queued. The code of each file refused here or
 * before is noted in `refusals` (each file once). Whatever is refused or fails leaves no object or row behind; the
 * accepted files' temporary files stay the caller's.
 */
export async function commitAccepted(
  deps: CommitDeps,
  userId: string,
  settings: NewBatchSettings,
  { accepted, refused }: CheckedFiles,
  log: CallLog,
  refusals: ErrorCode[],
  duplicatesMode: DuplicatesMode = 'refuse',
): Promise<UploadResponse> {
  const { fresh, duplicates, existingIdOf, held } = await splitExistingDuplicates(
    deps,
    userId,
    accepted,
    duplicatesMode,
  );
  const rejectedFiles = [
    ...refused.map((file) =>
      file.duplicateOf && existingIdOf.has(file.duplicateOf)
        ? { ...file, duplicateOf: existingIdOf.get(file.duplicateOf)!, detail: 'You already have this image.' }
        : file,
    ),
    ...duplicates,
  ];
  refusals.push(...rejectedFiles.map((file) => file.code));
  if (fresh.length === 0) {
    throw new AppError(
      'upload_rejected',
      'No file of this upload was accepted; each entry of errors says why.',
      rejectedFiles.map((file) => ({ path: file.originalFilename, message: file.detail, code: file.code })),
    );
  }
  const overQuota = (error: unknown) => {
    if (error instanceof AppError && error.code === 'quota_exceeded') {
      refusals.push(...fresh.map(() => 'quota_exceeded' as const));
    }
    throw error;
  };
  await assertQuotaLeft(deps, userId, fresh.length).catch(overQuota);
  const keys = await storeObjects(deps, userId, fresh);
  const commit = (isReupload: (file: AcceptedFile) => boolean) =>
    deps.db.transaction(async (tx) => {
      if ((await deps.users.reserveQuota(userId, fresh.length, deps.now(), tx)) === null) {
        throw new AppError('quota_exceeded', 'This upload would take you past your monthly quota.');
      }
      const created = await deps.batches.create({ userId, ...settings, total: fresh.length }, tx);
      await deps.images.insertMany(
        fresh.map((file, index) => ({
          id: file.imageId,
          batchId: created.id,
          userId,
          originalFilename: file.originalFilename,
          checksum: file.file.sha256,
          size: file.file.size,
          mimeType: file.mimeType,
          storageKey: keys[index]!,
          metadata: file.metadata,
          reupload: isReupload(file),
        })),
        tx,
      );
      return created;
    });
  const batch = await commit((file) => held.has(file.file.sha256))
    // With `allow`, a file another upload stored at the same moment is one more re-upload, as the person asked.
    .catch((error) =>
      duplicatesMode === 'allow' && isUniqueViolation(error, UNIQUE_FILE_PER_USER)
        ? commit(() => true)
        : Promise.reject(error),
    )
    .catch(overQuota)
    .catch(async (error) => {
      await deps.store.deleteMany(keys).catch(() => undefined);
      throw isUniqueViolation(error, UNIQUE_FILE_PER_USER)
        ? new AppError(
            'duplicate_file',
            'Another upload stored some of these files at the same moment; send this one again to see which.',
          )
        : error;
    });
  // Rows are committed first: if queueing fails here, the reconciler queues them later.
  await deps.scheduler
    .schedule(
      batch.id,
      fresh.map((file) => file.imageId),
    )
    .catch((err) => log.error({ err, batchId: batch.id }, 'batch not queued; the reconciler will'));
  return {
    batchId: batch.id,
    status: batch.status,
    total: fresh.length,
    accepted: fresh.map(({ imageId, originalFilename }) => ({ imageId, originalFilename })),
    rejected: rejectedFiles,
  };
}

/**
 * Files equal to an image the user already has, found in one query: refused, or with `allow` kept (their checksums
 * in `held`, to be stored as re-uploads).
 */
async function splitExistingDuplicates(
  deps: Pick<CommitDeps, 'images'>,
  userId: string,
  files: AcceptedFile[],
  mode: DuplicatesMode,
) {
  const matches = await deps.images.findDuplicateChecksums(
    userId,
    files.map(({ file }) => file.sha256),
  );
  const existing = new Map(matches.map((match) => [match.checksum, match.imageId]));
  if (mode === 'allow') {
    return { fresh: files, duplicates: [], existingIdOf: new Map<string, string>(), held: new Set(existing.keys()) };
  }
  const fresh = files.filter(({ file }) => !existing.has(file.sha256));
  const duplicates = files.filter(({ file }) => existing.has(file.sha256));
  await Promise.all(duplicates.map(({ file }) => file.cleanup()));
  // An earlier copy in this request that turns out to be an existing image: point at that image instead.
  const existingIdOf = new Map(duplicates.map(({ imageId, file }) => [imageId, existing.get(file.sha256)!]));
  return {
    fresh,
    held: new Set<string>(),
    existingIdOf,
    duplicates: duplicates.map(
      ({ originalFilename, file }): RejectedFile => ({
        originalFilename,
        code: 'duplicate_file',
        detail: 'You already have this image.',
        duplicateOf: existing.get(file.sha256)!,
      }),
    ),
  };
}

async function assertQuotaLeft(deps: Pick<CommitDeps, 'users' | 'now'>, userId: string, count: number) {
  const usage = await deps.users.getUsage(userId, deps.now());
  const remaining = usage ? quotaRemaining(usage.quota, usage.used) : 0;
  if (count > remaining) {
    throw new AppError(
      'quota_exceeded',
      `This upload has ${count} new images but your plan has ${remaining} left this month.`,
    );
  }
}

async function storeObjects(deps: Pick<CommitDeps, 'store'>, userId: string, files: AcceptedFile[]): Promise<string[]> {
  const keys: string[] = [];
  try {
    // One at a time: memory and open files stay flat whatever the batch size.
    for (const { imageId, file, mimeType } of files) {
      const key = imageObjectKey(userId, imageId);
      keys.push(key);
      await deps.store.putFile(key, file.path, { size: file.size, contentType: mimeType });
      await file.cleanup();
    }
    return keys;
  } catch (error) {
    await deps.store.deleteMany(keys).catch(() => undefined);
    throw error;
  }
}
