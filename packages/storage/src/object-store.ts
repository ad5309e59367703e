import type { Readable } from 'node:stream';

export interface PutOptions {
  /** Exact byte count of the stream; a stream that ends short or runs long fails the put. */
  size: number;
  contentType?: string;
}

export interface PutResult {
  key: string;
  size: number;
  etag?: string;
}

/** `length` bytes from `offset`; without `length`, to the end. */
export interface ByteRange {
  offset: number;
  length?: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  contentType?: string;
  lastModified: Date;
}

export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

export interface DownloadUrlOptions {
  expiresInSeconds: number;
  /** Served as `Content-Disposition: attachment; filename="…"`. */
  filename?: string;
  /** Overrides the Content-Type the link is served with. */
  contentType?: string;
}

export interface DownloadUrl {
  url: string;
  expiresAt: Date;
}

export interface ObjectStore {
  /** Creates the directory or bucket when missing; idempotent, called once at boot. */
  init(): Promise<void>;
  /** Readiness probe: resolves when the backend answers, throws otherwise. Changes nothing. */
  check(): Promise<void>;
  /** Replaces the object atomically: readers see the old bytes or the new, never a partial object. */
  put(key: string, stream: Readable, options: PutOptions): Promise<PutResult>;
  /**
   * `put` of a local file's bytes; the file is left in place. The fs driver links it into the store when
   * both are on one filesystem, so the bytes are not written a second time.
   */
  putFile(key: string, path: string, options: PutOptions): Promise<PutResult>;
  /** Throws ObjectNotFoundError when missing and InvalidRangeError when the range starts past the end. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<ObjectInfo | null>;
  /** Deleting a missing object succeeds. */
  delete(key: string): Promise<void>;
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Deletes every object under `prefix/`; the prefix must not be empty. */
  deletePrefix(prefix: string): Promise<void>;
  /** Every object under `prefix/` ('' lists all), streamed; order is not specified. */
  list(prefix: string): AsyncIterable<ListedObject>;
  /** A time-limited link anyone holding it can fetch; no I/O, and the object need not exist yet. */
  downloadUrl(key: string, options: DownloadUrlOptions): Promise<DownloadUrl>;
}
