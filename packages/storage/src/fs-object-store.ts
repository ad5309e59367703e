import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, link, mkdir, open, opendir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertByteRange, assertObjectSize, linkExpiry } from './arguments';
import { signDownloadLink } from './download-link';
import { InvalidObjectKeyError, InvalidRangeError, ObjectNotFoundError, ObjectSizeMismatchError } from './errors';
import { exactSize } from './exact-size';
import { assertObjectKey, assertObjectPrefix, isValidSegment } from './keys';
import type { ListedObject, ObjectStore } from './object-store';
import { putFileByStream } from './put-file-stream';

export interface FsObjectStoreOptions {
  dir: string;
  /** Origin of the API that serves `/api/files/<token>`. */
  publicUrl: string;
  signingSecret: string;
  /** Clock used to sign links. */
  now?: () => Date;
}

// '~' cannot appear in a key, so these names never collide with an object or a prefix, and list() skips them.
const TEMP_DIR = '.tmp~';
const CONTENT_TYPE_SUFFIX = '~content-type';
/**
 * Four times Node's default: a read's chunk passes several streams on its way out (a ZIP entry passes six), and
 * their cost is per chunk, so bigger chunks stream an archive about a fifth faster; one stream holds one chunk.
 */
const READ_CHUNK_BYTES = 256 * 1024;

/**
 * Objects live at `<dir>/<key>`; a content type sits beside its object in `<key>~content-type`. Unlike S3,
 * a key cannot be both an object and the prefix of another (a file cannot also be a directory).
 */
export function createFsObjectStore(options: FsObjectStoreOptions): ObjectStore {
  const root = resolve(options.dir);
  const tempDir = join(root, TEMP_DIR);
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());

  function pathOf(key: string): string {
    assertObjectKey(key);
    const path = resolve(root, ...key.split('/'));
    if (!path.startsWith(root + sep)) throw new InvalidObjectKeyError(key, 'resolves outside the storage directory');
    return path;
  }

  async function writeTemp(stream: Readable, size: number): Promise<string> {
    await mkdir(tempDir, { recursive: true });
    const temp = join(tempDir, randomUUID());
    try {
      // Opened first: a write stream opens its file in its own time, after the rm below if the stream fails at once.
      const handle = await open(temp, 'wx');
      await pipeline(stream, exactSize(size), handle.createWriteStream());
      await flushToDisk(temp);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return temp;
  }

  /** A hard link to `source` in the temp dir, or undefined when the two are on different filesystems. */
  async function linkTemp(source: string, size: number): Promise<string | undefined> {
    await mkdir(tempDir, { recursive: true });
    const temp = join(tempDir, randomUUID());
    try {
      await link(source, temp);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EXDEV') return undefined;
      throw error;
    }
    try {
      const linked = await stat(temp);
      if (linked.size !== size) throw new ObjectSizeMismatchError(size, linked.size, true);
      await flushToDisk(temp);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return temp;
  }

  /** Makes a complete temporary file the object at `path`, atomically; the temporary file goes if it fails. */
  async function moveIntoPlace(temp: string, path: string, contentType: string | undefined): Promise<void> {
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeContentType(path, contentType);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async function writeContentType(path: string, contentType: string | undefined): Promise<void> {
    const sidecar = path + CONTENT_TYPE_SUFFIX;
    if (contentType === undefined) return rm(sidecar, { force: true });
    const temp = join(tempDir, randomUUID());
    try {
      await writeFile(temp, contentType, { flag: 'wx' });
      await rename(temp, sidecar);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async function* walk(dir: string, keyPrefix: string): AsyncGenerator<ListedObject> {
    const entries = await opendir(dir).catch(ignoreMissing);
    if (!entries) return;
    for await (const entry of entries) {
      if (!isValidSegment(entry.name)) continue;
      const key = keyPrefix ? `${keyPrefix}/${entry.name}` : entry.name;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        yield* walk(path, key);
      } else if (entry.isFile()) {
        const info = await stat(path).catch(ignoreMissing);
        if (info) yield { key, size: info.size, lastModified: info.mtime };
      }
    }
  }

  const store: ObjectStore = {
    async init() {
      await mkdir(tempDir, { recursive: true });
    },

    async check() {
      const info = await stat(root);
      if (!info.isDirectory()) throw new Error(`storage path ${root} is not a directory`);
      await access(root, constants.R_OK | constants.W_OK);
    },

    async put(key, stream, { size, contentType }) {
      const path = pathOf(key);
      assertObjectSize(size);
      await moveIntoPlace(await writeTemp(stream, size), path, contentType);
      return { key, size };
    },

    async putFile(key, source, { size, contentType }) {
      const path = pathOf(key);
      assertObjectSize(size);
      const temp = await linkTemp(source, size);
      if (!temp) return putFileByStream(store, key, source, { size, contentType });
      await moveIntoPlace(temp, path, contentType);
      return { key, size };
    },

    async get(key, range) {
      const path = pathOf(key);
      if (range) assertByteRange(range);
      const handle = await open(path, 'r').catch(ignoreMissing);
      if (!handle) throw new ObjectNotFoundError(key);
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw new ObjectNotFoundError(key);
        if (!range) return handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
        if (range.offset >= info.size) throw new InvalidRangeError(key, range.offset);
        const end = range.length === undefined ? undefined : range.offset + range.length - 1;
        return handle.createReadStream({ start: range.offset, end, highWaterMark: READ_CHUNK_BYTES });
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async stat(key) {
      const path = pathOf(key);
      const info = await stat(path).catch(ignoreMissing);
      if (!info?.isFile()) return null;
      const contentType = await readFile(path + CONTENT_TYPE_SUFFIX, 'utf8').catch(ignoreMissing);
      return { key, size: info.size, contentType, lastModified: info.mtime };
    },

    async delete(key) {
      const path = pathOf(key);
      await unlink(path).catch(ignoreMissing);
      await rm(path + CONTENT_TYPE_SUFFIX, { force: true });
    },

    async deleteMany(keys) {
      for (const key of keys) pathOf(key);
      for (const key of keys) await store.delete(key);
    },

    async deletePrefix(prefix) {
      const path = pathOf(prefix);
      const info = await stat(path).catch(ignoreMissing);
      if (info?.isDirectory()) await rm(path, { recursive: true, force: true });
    },

    async *list(prefix) {
      assertObjectPrefix(prefix);
      yield* walk(prefix === '' ? root : pathOf(prefix), prefix);
    },

    async downloadUrl(key, { expiresInSeconds, filename, contentType }) {
      assertObjectKey(key);
      const expiresAt = linkExpiry(now(), expiresInSeconds);
      const token = signDownloadLink({ key, expiresAt, filename, contentType }, options.signingSecret);
      return { url: `${publicUrl}/api/files/${token}`, expiresAt };
    },
  };
  return store;
}

/** Flushed before the rename, or a crash could leave a renamed but empty file. */
async function flushToDisk(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Turns "no such object" (missing, or a path component that is a file or directory) into undefined. */
function ignoreMissing(error: unknown): undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
  throw error;
}
