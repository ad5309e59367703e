import type { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { countBytes } from './count-bytes';

/** An entry whose bytes are read only when its turn comes. */
export interface StreamedEntry {
  name: string;
  /** Known ahead (the stored size), or undefined (an embedded copy): all known makes the archive's size known. */
  size?: number;
  mtime: Date;
  open(): Promise<Readable>;
}

/** A small generated file (the rename kit). */
export interface GeneratedEntry {
  name: string;
  content: string;
  mtime: Date;
}

export interface ZipArchiveEvents {
  /** The archive broke off (a store or an embedding failed): it is destroyed with the error. */
  onError(error: Error): void;
  /** The archive's stream closed, ended (`completed`) or cut off, after `bytes` went out. */
  onClose(bytes: number, completed: boolean): void;
}

export interface ZipArchive {
  /** The archive's bytes. Destroying it (a client gone) destroys the entry being read and opens no other. */
  stream: Readable;
  /** Exact length when every entry's size is known, for Content-Length. */
  size: number | undefined;
}

/**
 * A ZIP streamed entry by entry with yazl: images are stored, not deflated (they are compressed already), each
 * source opened only when the archive reaches it, ZIP64 where sizes need it. yazl has no abort, so the
 * stream handed out tracks the source being read and destroys it, and yazl's output, when it is destroyed.
 */
export function zipArchive(
  streamed: readonly StreamedEntry[],
  generated: readonly GeneratedEntry[],
  { onError, onClose }: ZipArchiveEvents,
): ZipArchive {
  const zip = new ZipFile();
  let current: Readable | undefined;
  let stopped = false;

  for (const entry of streamed) {
    zip.addReadStreamLazy(entry.name, { compress: false, size: entry.size, mtime: entry.mtime }, (callback) => {
      if (stopped) return;
      entry.open().then(
        (source) => {
          if (stopped) {
            source.destroy();
            return;
          }
          current = source;
          // yazl pipes the source without listening for its errors: a store failing mid-entry would hang it.
          source.once('error', fail);
          source.once('close', () => {
            if (current === source) current = undefined;
          });
          callback(null, source);
        },
        (error: Error) => callback(error, undefined as never),
      );
    });
  }
  for (const file of generated) {
    zip.addBuffer(Buffer.from(file.content), file.name, { compress: false, mtime: file.mtime });
  }

  let size: number | undefined;
  // Called at once when every size is known (-1 when some are not).
  zip.end(undefined, ((total: number) => {
    size = total >= 0 ? total : undefined;
  }) as () => void);

  const output = zip.outputStream as PassThrough;
  function stop() {
    if (stopped) return;
    stopped = true;
    current?.destroy();
    output.destroy();
  }
  function fail(error: Error) {
    onError(error);
    stop();
    stream.destroy(error);
  }
  const stream = countBytes(output, (sent, completed) => {
    stop();
    onClose(sent, completed);
  });
  zip.on('error', fail);
  return { stream, size };
}
