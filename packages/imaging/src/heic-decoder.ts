import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import Piscina from 'piscina';

/** What a decode in the pool gives back (see heic-decode-thread.mjs). */
export type HeicDecodeResult =
  | { refused: string }
  | { width: number; height: number; threadId: number }
  | { width: number; height: number; channels: 3 | 4; data: Uint8Array; threadId: number };

export interface HeicDecodeTask {
  path: string;
  /** Refused when the primary image has more pixels than this, before it is decoded. */
  maxPixels?: number;
  /** Give the pixels back, reduced in the thread to this long edge (so a 12 MP RGBA buffer is not copied). */
  pixels?: { maxEdge?: number };
}

// Resolved through the package's own exports, so that the bundled services find it in node_modules too.
const THREAD_FILE = createRequire(import.meta.url).resolve('@renamer/imaging/heic-decode-thread');

let threads = availableParallelism();
let pool: Piscina<HeicDecodeTask, HeicDecodeResult> | undefined;

/** How many threads decode HEIC at once (default: the cores). Takes effect when the pool is next created. */
export function setHeicDecodeThreads(count: number): void {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError('HEIC decode threads must be a positive integer');
  threads = count;
}

/** Decodes a HEIC's primary image in a worker thread, never on the event loop. The pool starts on first use. */
export function decodeHeicInPool(task: HeicDecodeTask): Promise<HeicDecodeResult> {
  pool ??= new Piscina<HeicDecodeTask, HeicDecodeResult>({
    filename: THREAD_FILE,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 60_000,
  });
  return pool.run(task);
}

/** Stops the pool's threads (after their running decodes); a later decode starts a new pool. */
export async function closeHeicPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close();
}
