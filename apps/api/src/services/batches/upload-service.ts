import { randomUUID } from 'node:crypto';
import type { Multipart } from '@fastify/multipart';
import {
  AppError,
  type ErrorCode,
  IMAGE_FORMAT_TABLE,
  IMAGE_FORMATS_IN_WORDS,
  type ImageMetadata,
  OriginalFilename,
  type RejectedFile,
  type SizeLimit,
  UploadFields,
} from '@renamer/contracts';
import {
  type BatchRepository,
  type Database,
  type ImageRepository,
  isUniqueViolation,
  UNIQUE_FILE_PER_USER,
  type User,
  type UserRepository,
} from '@renamer/db';
import { acceptedTemplate, parseTemplate, quotaRemaining } from '@renamer/domain';
import {
  type AllowedImageType,
  declaredTypeAgrees,
  FORMAT_OF_TYPE,
  inspectImageSafety,
  isAllowedImageType,
  type SpooledFile,
  type SpoolResult,
  sniffImageType,
  spoolToTempFile,
} from '@renamer/imaging';
import type { BatchScheduler } from '@renamer/jobs';
import type { CallLog } from '@renamer/runtime';
import { imageObjectKey, type ObjectStore } from '@renamer/storage';
import { createBodyGarbageReclaimer } from './body-garbage';
import { BoundedChecks } from './bounded-checks';

export interface UploadLimits {
  /** Every type but camera RAW. */
  maxFileBytes: number;
  /** Camera RAW (DNG, CR2, …). */
  maxRawBytes: number;
  maxFiles: number;
  maxPixels: number;
  tmpDir: string;
  /** How many files of one request are checked at once (each holds one spooled file). */
  checkConcurrency: number;
}

export interface UploadServiceDeps {
  db: Pick<Database, 'transaction'>;
  users: Pick<UserRepository, 'reserveQuota' | 'getUsage'>;
  batches: Pick<BatchRepository, 'create'>;
  images: Pick<ImageRepository, 'insertMany' | 'findDuplicateChecksums'>;
  store: Pick<ObjectStore, 'putFile' | 'deleteMany'>;
  scheduler: Pick<BatchScheduler, 'schedule'>;
  /** Off (`uploads-enabled`): every upload is refused before its body is read. */
  uploadsEnabled: () => Promise<boolean>;
  /** Counts the problem codes of the files an upload refused (each file once, a whole-request refusal once). */
  recordRejections: (codes: readonly ErrorCode[]) => Promise<void>;
  limits: UploadLimits;
  now?: () => Date;
}

interface AcceptedFile {
  imageId: string;
  originalFilename: string;
  file: SpooledFile;
  mimeType: string;
  metadata: ImageMetadata;
}

type Rejection = { rejected: RejectedFile };
type Verdict = { accepted: AcceptedFile } | Rejection;

/** Which of the upload's size limits a file of an accepted type has (the format table's). */
export const sizeLimitOf = (mime: AllowedImageType): SizeLimit => IMAGE_FORMAT_TABLE[FORMAT_OF_TYPE[mime]].sizeLimit;

/** Why a file whose bytes are of no accepted format is refused, naming every accepted one. */
export const NOT_AN_ACCEPTED_TYPE = `The file is not a ${IMAGE_FORMATS_IN_WORDS.pictures} image, nor a camera RAW file (${IMAGE_FORMATS_IN_WORDS.cameraRaw}).`;

const MIB = 1024 * 1024;
const sizeText = (bytes: number) => (bytes >= MIB ? `${Math.floor(bytes / MIB)} MiB` : `${bytes} bytes`);
const displayName = (filename: string | undefined) => (filename?.trim() || 'unnamed').slice(0, 255);
const rejected = (
  originalFilename: string,
  code: RejectedFile['code'],
  detail: string,
  duplicateOf?: string,
): Rejection => ({
  rejected: { originalFilename, code, detail, ...(duplicateOf ? { duplicateOf } : {}) },
});

/**
 * `POST /api/batch`: the parts are read in order, each spooled once to a temporary file while it is
 * hashed; up to `checkConcurrency` of them are checked at once from there in the contract's order (type,
 * size, safety), and then, in the files' order, duplicates within the request (the earlier file wins).
 * Then the quota, then the objects are stored and the rows committed in one transaction, then the jobs are
 * queued. Whatever is refused or fails leaves no object, temporary file or row behind.
 */
export function createUploadService(deps: UploadServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const { limits } = deps;
  const bodyGarbage = createBodyGarbageReclaimer();

  const MAX_BYTES: Record<SizeLimit, number> = { image: limits.maxFileBytes, 'camera-raw': limits.maxRawBytes };
  /** Camera RAW has a limit of its own; the file's head, sniffed while it is spooled, decides which applies. */
  async function maxBytesFor(head: Buffer): Promise<number> {
    const sniffed = await sniffImageType(head);
    return MAX_BYTES[sniffed && isAllowedImageType(sniffed.mime) ? sizeLimitOf(sniffed.mime) : 'image'];
  }

  async function check(name: string, declared: string, spooled: SpoolResult): Promise<Verdict> {
    // The type is judged first, from the leading bytes, even for a file too large to keep.
    const type = await checkType(name, declared, spooled.ok ? spooled.file.head : spooled.head);
    if (!spooled.ok) {
      if ('rejected' in type) return type;
      const kind = sizeLimitOf(type.mime) === 'camera-raw' ? 'camera RAW file' : 'file';
      return rejected(name, 'file_too_large', `The ${kind} is larger than ${sizeText(spooled.maxBytes)}.`);
    }
    if ('rejected' in type) {
      await spooled.file.cleanup();
      return type;
    }
    const verdict = await checkContent(name, type.mime, spooled.file).catch(async (error) => {
      await spooled.file.cleanup();
      throw error;
    });
    if ('rejected' in verdict) await spooled.file.cleanup();
    return verdict;
  }

  async function checkType(
    name: string,
    declared: string,
    head: Buffer,
  ): Promise<{ mime: AllowedImageType } | Rejection> {
    const sniffed = await sniffImageType(head);
    if (!sniffed || !isAllowedImageType(sniffed.mime)) {
      return rejected(name, 'unsupported_media_type', NOT_AN_ACCEPTED_TYPE);
    }
    if (!declaredTypeAgrees(declared, sniffed.mime)) {
      return rejected(name, 'unsupported_media_type', `The file was sent as ${declared} but is ${sniffed.mime}.`);
    }
    return { mime: sniffed.mime };
  }

  async function checkContent(name: string, mime: string, file: SpooledFile): Promise<Verdict> {
    if (!OriginalFilename.safeParse(name).success)
      return rejected(name, 'invalid_filename', 'The file name must be one line without control characters.');
    const safety = await inspectImageSafety(file.path, { sniffedMime: mime, maxPixels: limits.maxPixels });
    if (!safety.ok) return rejected(name, 'unsafe_file', safety.detail);
    return {
      accepted: { imageId: randomUUID(), originalFilename: name, file, mimeType: mime, metadata: safety.metadata },
    };
  }

  /** In the files' order, so that of two equal files the earlier is kept whichever check ended first. */
  async function refuseRepeats(verdicts: Verdict[]): Promise<Verdict[]> {
    const seen = new Map<string, string>();
    const kept: Verdict[] = [];
    for (const verdict of verdicts) {
      const accepted = 'accepted' in verdict ? verdict.accepted : undefined;
      const earlier = accepted && seen.get(accepted.file.sha256);
      if (accepted && earlier) {
        await accepted.file.cleanup();
        kept.push(
          rejected(accepted.originalFilename, 'duplicate_file', 'The same file is earlier in this upload.', earlier),
        );
        continue;
      }
      if (accepted) seen.set(accepted.file.sha256, accepted.imageId);
      kept.push(verdict);
    }
    return kept;
  }

  async function readParts(parts: AsyncIterable<Multipart>) {
    const fields: Record<string, string> = {};
    const checks = new BoundedChecks<Verdict>(limits.checkConcurrency);
    let files = 0;
    try {
      for await (const part of parts) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'files') {
          part.file.resume();
          continue;
        }
        files += 1;
        if (files > limits.maxFiles) {
          throw new AppError('too_many_files', `At most ${limits.maxFiles} files per request.`);
        }
        const name = displayName(part.filename);
        // Spooled here, in order: the multipart stream holds one part at a time.
        const spooled = await spoolToTempFile(part.file, { dir: limits.tmpDir, maxBytes: maxBytesFor });
        bodyGarbage.spooled(spooled.ok ? spooled.file.size : spooled.receivedBytes);
        await checks.start(() => check(name, part.mimetype, spooled));
      }
      const verdicts = await refuseRepeats(await checks.all());
      return {
        accepted: verdicts.flatMap((verdict) => ('accepted' in verdict ? [verdict.accepted] : [])),
        refused: verdicts.flatMap((verdict) => ('rejected' in verdict ? [verdict.rejected] : [])),
        fields,
      };
    } catch (error) {
      const settled = await checks.settled();
      await Promise.all(
        settled.map((verdict) => ('accepted' in verdict ? verdict.accepted.file.cleanup() : undefined)),
      );
      throw error;
    }
  }

  /** Files equal to an image the user already has, found in one query. */
  async function splitExistingDuplicates(userId: string, files: AcceptedFile[]) {
    const matches = await deps.images.findDuplicateChecksums(
      userId,
      files.map(({ file }) => file.sha256),
    );
    const existing = new Map(matches.map((match) => [match.checksum, match.imageId]));
    const fresh = files.filter(({ file }) => !existing.has(file.sha256));
    const duplicates = files.filter(({ file }) => existing.has(file.sha256));
    await Promise.all(duplicates.map(({ file }) => file.cleanup()));
    // An earlier copy in this request that turns out to be an existing image: point at that image instead.
    const existingIdOf = new Map(duplicates.map(({ imageId, file }) => [imageId, existing.get(file.sha256)!]));
    return {
      fresh,
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

  async function assertQuotaLeft(userId: string, count: number) {
    const usage = await deps.users.getUsage(userId, now());
    const remaining = usage ? quotaRemaining(usage.quota, usage.used) : 0;
    if (count > remaining) {
      throw new AppError(
        'quota_exceeded',
        `This upload has ${count} new images but your plan has ${remaining} left this month.`,
      );
    }
  }

  async function storeObjects(userId: string, files: AcceptedFile[]): Promise<string[]> {
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

  /** `upload`, noting the code of each file it refuses in `refusals`. */
  async function storeUpload(uploader: Uploader, parts: AsyncIterable<Multipart>, log: CallLog, refusals: ErrorCode[]) {
    const userId = uploader.id;
    const { accepted, refused, fields } = await readParts(parts);
    try {
      const options = UploadFields.safeParse(fields);
      if (!options.success) {
        throw new AppError(
          'validation_failed',
          'The upload fields are not valid.',
          options.error.issues.map((issue) => ({ path: `body.${issue.path.join('.')}`, message: issue.message })),
        );
      }
      // The account's defaults stand where the upload says nothing; a template the upload gives is checked here, and
      // a default the batch's locale cannot use (checked in English when it was saved) is left out, not refused.
      const { locale } = options.data;
      const given = options.data.template?.trim();
      const template = given
        ? acceptedTemplate(given, locale)
        : uploader.template && parseTemplate(uploader.template, locale).ok
          ? uploader.template
          : null;
      const instructions = options.data.instructions?.trim() || uploader.instructions;
      if (accepted.length + refused.length === 0) {
        throw new AppError('validation_failed', 'Send one or more files in parts named "files".');
      }
      const { fresh, duplicates, existingIdOf } = await splitExistingDuplicates(userId, accepted);
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
      await assertQuotaLeft(userId, fresh.length).catch(overQuota);
      const keys = await storeObjects(userId, fresh);
      const batch = await deps.db
        .transaction(async (tx) => {
          if ((await deps.users.reserveQuota(userId, fresh.length, now(), tx)) === null) {
            throw new AppError('quota_exceeded', 'This upload would take you past your monthly quota.');
          }
          const created = await deps.batches.create(
            {
              userId,
              name: options.data.name || null,
              locale: options.data.locale,
              keywords: options.data.keywords,
              context: options.data.context?.trim() || null,
              template,
              instructions,
              total: fresh.length,
            },
            tx,
          );
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
            })),
            tx,
          );
          return created;
        })
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
    } finally {
      await Promise.all(accepted.map(({ file }) => file.cleanup()));
    }
  }

  /** Counted, or logged when it cannot be: a lost count would hide a problem from operators. */
  async function countRefusals(codes: readonly ErrorCode[], log: CallLog) {
    if (codes.length === 0) return;
    await deps.recordRejections(codes).catch((err) => log.error({ err, codes }, 'upload rejections not counted'));
  }

  return {
    /** What uploads are checked against; the route's multipart parser is set up from them too. */
    limits,

    /** Checked right after the credentials, before the body is read. */
    async assertEnabled() {
      if (!(await deps.uploadsEnabled())) {
        throw new AppError('uploads_disabled', 'Uploads are switched off for now; try again later.');
      }
    },

    /** A new batch of the uploader's files, named with the upload's template and instructions, else the account's. */
    async upload(uploader: Uploader, parts: AsyncIterable<Multipart>, log: CallLog) {
      const refusals: ErrorCode[] = [];
      try {
        return await storeUpload(uploader, parts, log, refusals);
      } catch (error) {
        if (error instanceof AppError && refusals.length === 0) refusals.push(error.code);
        throw error;
      } finally {
        await countRefusals(refusals, log);
      }
    },
  };
}

export type UploadService = ReturnType<typeof createUploadService>;
export type Uploader = Pick<User, 'id' | 'template' | 'instructions'>;
