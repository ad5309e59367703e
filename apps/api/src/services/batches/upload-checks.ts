import { randomUUID } from 'node:crypto';
import {
  AppError,
  IMAGE_FORMAT_TABLE,
  IMAGE_FORMATS_IN_WORDS,
  type ImageMetadata,
  type ImageMimeType,
  OriginalFilename,
  type RejectedFile,
  type SizeLimit,
} from '@renamer/contracts';
import {
  declaredTypeAgrees,
  FORMAT_OF_TYPE,
  inspectImageSafety,
  isImageMimeType,
  type SpooledFile,
  type SpoolResult,
  sniffImageType,
  spoolToTempFile,
} from '@renamer/imaging';
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

/** One file of an upload, as the client sent it. */
export interface IncomingFile {
  /** The name the client gave it, if any. */
  filename: string | undefined;
  /** The media type the client declared for it, if any. */
  declaredType: string | undefined;
  /** Its bytes, read once and to their end before the next file is asked for. */
  stream: AsyncIterable<Uint8Array>;
}

/** A file that passed every check, spooled and waiting to be stored. */
export interface AcceptedFile {
  imageId: string;
  originalFilename: string;
  file: SpooledFile;
  mimeType: string;
  metadata: ImageMetadata;
}

/** The files of an upload in the order sent, each accepted or refused with the reason. */
export interface CheckedFiles {
  accepted: AcceptedFile[];
  refused: RejectedFile[];
}

type Rejection = { rejected: RejectedFile };
type Verdict = { accepted: AcceptedFile } | Rejection;

/** Which of the upload's size limits a file of an accepted type has (the format table's). */
export const sizeLimitOf = (mime: ImageMimeType): SizeLimit => IMAGE_FORMAT_TABLE[FORMAT_OF_TYPE[mime]].sizeLimit;

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
 * Checks each file of an upload. The files are read in order, each spooled once to a temporary file while it is
 * hashed; up to `checkConcurrency` of them are checked at once from there in the contract's order (type, size,
 * name, safety), and then, in the files' order, duplicates within the request (the earlier file wins). More than
 * `maxFiles` files refuse the whole request (413 `too_many_files`). Whatever fails leaves no temporary file behind;
 * the accepted files' are the caller's to remove.
 */
export async function checkFiles(files: AsyncIterable<IncomingFile>, limits: UploadLimits): Promise<CheckedFiles> {
  const checks = new BoundedChecks<Verdict>(limits.checkConcurrency);
  const maxBytes = maxBytesFor(limits);
  let count = 0;
  try {
    for await (const { filename, declaredType, stream } of files) {
      count += 1;
      if (count > limits.maxFiles)
        throw new AppError('too_many_files', `At most ${limits.maxFiles} files per request.`);
      // Spooled here, in order: the body holds one file at a time.
      const spooled = await spoolToTempFile(stream, { dir: limits.tmpDir, maxBytes });
      await checks.start(() => checkFile(displayName(filename), declaredType, spooled, limits));
    }
    const verdicts = await refuseRepeats(await checks.all());
    return {
      accepted: verdicts.flatMap((verdict) => ('accepted' in verdict ? [verdict.accepted] : [])),
      refused: verdicts.flatMap((verdict) => ('rejected' in verdict ? [verdict.rejected] : [])),
    };
  } catch (error) {
    const settled = await checks.settled();
    await Promise.all(settled.map((verdict) => ('accepted' in verdict ? verdict.accepted.file.cleanup() : undefined)));
    throw error;
  }
}

/** Camera RAW has a limit of its own; the file's head, sniffed while it is spooled, decides which applies. */
function maxBytesFor(limits: UploadLimits) {
  const maxBytes: Record<SizeLimit, number> = { image: limits.maxFileBytes, 'camera-raw': limits.maxRawBytes };
  return async (head: Buffer): Promise<number> => {
    const sniffed = await sniffImageType(head);
    return maxBytes[sniffed && isImageMimeType(sniffed.mime) ? sizeLimitOf(sniffed.mime) : 'image'];
  };
}

/** One file's verdict; a refused file's temporary file is removed. */
async function checkFile(
  name: string,
  declared: string | undefined,
  spooled: SpoolResult,
  limits: UploadLimits,
): Promise<Verdict> {
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
  const verdict = await checkContent(name, type.mime, spooled.file, limits).catch(async (error) => {
    await spooled.file.cleanup();
    throw error;
  });
  if ('rejected' in verdict) await spooled.file.cleanup();
  return verdict;
}

async function checkType(
  name: string,
  declared: string | undefined,
  head: Buffer,
): Promise<{ mime: ImageMimeType } | Rejection> {
  const sniffed = await sniffImageType(head);
  if (!sniffed || !isImageMimeType(sniffed.mime)) return rejected(name, 'unsupported_media_type', NOT_AN_ACCEPTED_TYPE);
  if (!declaredTypeAgrees(declared, sniffed.mime)) {
    return rejected(name, 'unsupported_media_type', `The file was sent as ${declared} but is ${sniffed.mime}.`);
  }
  return { mime: sniffed.mime };
}

async function checkContent(name: string, mime: string, file: SpooledFile, limits: UploadLimits): Promise<Verdict> {
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
