import { AppError, type ErrorCode, type UploadFields, type UploadResponse } from '@renamer/contracts';
import type { User } from '@renamer/db';
import { acceptedTemplate, parseTemplate } from '@renamer/domain';
import type { CallLog } from '@renamer/runtime';
import { type CheckedFiles, checkFiles, type IncomingFile, type UploadLimits } from './upload-checks';
import { type CommitDeps, commitAccepted, type NewBatchSettings } from './upload-commit';

export type { IncomingFile, UploadLimits } from './upload-checks';

/** An upload as the service receives it: its files in the order they were sent, and its fields. */
export interface IncomingUpload {
  files: AsyncIterable<IncomingFile>;
  /** The upload's fields, valid (400 `validation_failed` otherwise); known once `files` has ended. */
  fields(): UploadFields;
}

export type Uploader = Pick<User, 'id' | 'template' | 'instructions'>;

export interface UploadServiceDeps extends Omit<CommitDeps, 'now'> {
  /** Off (`uploads-enabled`): every upload is refused before its body is read. */
  uploadsEnabled: () => Promise<boolean>;
  /** Counts the problem codes of the files an upload refused (each file once, a whole-request refusal once). */
  recordRejections: (codes: readonly ErrorCode[]) => Promise<void>;
  limits: UploadLimits;
  now?: () => Date;
}

/**
 * `POST /api/batch` in two steps: check each file (`checkFiles`: type, size, name, safety, repeats within the
 * upload), then commit the accepted ones (`commitAccepted`: repeats of the user's images, quota, objects, rows,
 * jobs). The batch is named with the upload's template and instructions, else the account's. Every refusal is
 * counted, each file once and a whole-request refusal once.
 */
export function createUploadService(deps: UploadServiceDeps) {
  const commitDeps: CommitDeps = { ...deps, now: deps.now ?? (() => new Date()) };

  async function checkAndCommit(uploader: Uploader, incoming: IncomingUpload, log: CallLog, refusals: ErrorCode[]) {
    const checked = await checkFiles(incoming.files, deps.limits);
    try {
      const fields = incoming.fields();
      const settings = newBatchSettings(uploader, fields);
      if (checked.accepted.length + checked.refused.length === 0) {
        throw new AppError('validation_failed', 'Send one or more files in the form field "files".');
      }
      return await commitAccepted(commitDeps, uploader.id, settings, checked, log, refusals, fields.duplicates);
    } finally {
      await removeSpooled(checked);
    }
  }

  /** Counted, or logged when it cannot be: a lost count would hide a problem from operators. */
  async function countRefusals(codes: readonly ErrorCode[], log: CallLog) {
    if (codes.length === 0) return;
    await deps.recordRejections(codes).catch((err) => log.error({ err, codes }, 'upload rejections not counted'));
  }

  return {
    /** What uploads are checked against; the route's body parser is set up from them too. */
    limits: deps.limits,

    /** Checked right after the credentials, before the body is read. */
    async assertEnabled() {
      if (!(await deps.uploadsEnabled())) {
        throw new AppError('uploads_disabled', 'Uploads are switched off for now; try again later.');
      }
    },

    /** A new batch of the uploader's files; whatever is refused or fails leaves no object, temporary file or row. */
    async upload(uploader: Uploader, incoming: IncomingUpload, log: CallLog): Promise<UploadResponse> {
      const refusals: ErrorCode[] = [];
      try {
        return await checkAndCommit(uploader, incoming, log, refusals);
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

/**
 * The account's defaults stand where the upload says nothing; a template the upload gives is checked here, and a
 * default the batch's locale cannot use (checked in English when it was saved) is left out, not refused.
 */
function newBatchSettings(uploader: Uploader, fields: UploadFields): NewBatchSettings {
  const { locale } = fields;
  const given = fields.template?.trim();
  const template = given
    ? acceptedTemplate(given, locale)
    : uploader.template && parseTemplate(uploader.template, locale).ok
      ? uploader.template
      : null;
  return {
    name: fields.name || null,
    locale,
    keywords: fields.keywords,
    context: fields.context?.trim() || null,
    template,
    instructions: fields.instructions?.trim() || uploader.instructions,
  };
}

/** The temporary files of the accepted files not stored (all of them when the upload failed). */
async function removeSpooled({ accepted }: CheckedFiles) {
  await Promise.all(accepted.map(({ file }) => file.cleanup()));
}
