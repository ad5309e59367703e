import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SNIFF_HEAD_BYTES } from './image-types';

export interface SpooledFile {
  path: string;
  size: number;
  /** Lowercase hex, as sha256sum prints it. */
  sha256: string;
  /** The first SNIFF_HEAD_BYTES bytes (fewer for a smaller file), for `sniffImageType`. */
  head: Buffer;
  /** Deletes the file; safe to call more than once. */
  cleanup(): Promise<void>;
}

export type SpoolResult =
  | { ok: true; file: SpooledFile }
  /** `head` is kept so the type can still be sniffed first, as the contract orders the checks. */
  | { ok: false; reason: 'too_large'; maxBytes: number; receivedBytes: number; head: Buffer };

export interface SpoolOptions {
  /** Where the temporary file goes; os.tmpdir() by default. */
  dir?: string;
  /**
   * The most bytes kept, or a function giving it from the file's first SNIFF_HEAD_BYTES bytes (all of them
   * for a smaller file), called once: a limit that depends on the type, judged before the rest is written.
   */
  maxBytes: number | ((head: Buffer) => number | Promise<number>);
}

function checkedLimit(maxBytes: number): number {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError('maxBytes must be a non-negative integer');
  return maxBytes;
}

async function writeFully(handle: FileHandle, chunk: Buffer): Promise<void> {
  for (let written = 0; written < chunk.length; ) {
    written += (await handle.write(chunk, written)).bytesWritten;
  }
}

/**
 * Reads `source` (a stream, or any iterable of bytes) once into a new temporary file (mode 0600), hashing it and
 * keeping its first bytes on the way. Past `maxBytes` it deletes the file and reads the rest of the source to its
 * end without keeping it, so a multipart parser can go on to the next part; the result says `too_large`. If the
 * source fails, or writing does (then the source is closed: a stream is destroyed), the file is deleted and the
 * error is thrown.
 */
export async function spoolToTempFile(
  source: AsyncIterable<Uint8Array>,
  { dir = tmpdir(), maxBytes }: SpoolOptions,
): Promise<SpoolResult> {
  let limit = typeof maxBytes === 'number' ? checkedLimit(maxBytes) : undefined;
  const limitFor = async (bytes: Buffer) =>
    typeof maxBytes === 'number' ? maxBytes : checkedLimit(await maxBytes(bytes));
  const path = join(dir, `renamer-spool-${randomUUID()}`);
  const handle = await open(path, 'wx', 0o600);
  const discard = async () => {
    await handle.close();
    await rm(path, { force: true });
  };

  const hash = createHash('sha256');
  const head = Buffer.alloc(SNIFF_HEAD_BYTES);
  let headLength = 0;
  let received = 0;
  let writing = true;
  try {
    for await (const chunk of source) {
      if (!(chunk instanceof Uint8Array)) throw new TypeError('spoolToTempFile needs a byte stream, not strings');
      received += chunk.length;
      if (!writing) continue;
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      if (headLength < head.length) headLength += bytes.copy(head, headLength);
      if (limit === undefined && headLength === head.length) limit = await limitFor(head);
      if (limit !== undefined && received > limit) {
        writing = false;
        await discard();
        continue;
      }
      hash.update(bytes);
      await writeFully(handle, bytes);
    }
    limit ??= await limitFor(head.subarray(0, headLength));
    if (writing && received > limit) {
      writing = false;
      await discard();
    }
  } catch (error) {
    if (writing) await discard();
    throw error;
  }
  if (!writing) {
    return {
      ok: false,
      reason: 'too_large',
      maxBytes: limit,
      receivedBytes: received,
      head: head.subarray(0, headLength),
    };
  }
  await handle.close();

  let removal: Promise<void> | undefined;
  const file: SpooledFile = {
    path,
    size: received,
    sha256: hash.digest('hex'),
    head: head.subarray(0, headLength),
    cleanup: () => {
      removal ??= rm(path, { force: true });
      return removal;
    },
  };
  return { ok: true, file };
}
