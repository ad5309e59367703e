export type Release = () => void;

export interface Semaphore {
  /** Resolves with a release function once a slot is free; rejects if `signal` aborts while waiting. */
  acquire(signal?: AbortSignal): Promise<Release>;
}

/**
 * At most `limit` holders at once, served first come, first served. Written here rather than taken from p-limit
 * because a caller waiting for a slot must be able to give up (its AbortSignal) and leave the queue.
 */
export function createSemaphore(limit: number): Semaphore {
  let held = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else held -= 1;
  };

  return {
    acquire(signal) {
      signal?.throwIfAborted();
      if (held < limit) {
        held += 1;
        return Promise.resolve(once(release));
      }
      return new Promise<Release>((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', leave);
          resolve(once(release));
        };
        const leave = () => {
          waiting.splice(waiting.indexOf(grant), 1);
          reject(signal?.reason);
        };
        waiting.push(grant);
        signal?.addEventListener('abort', leave, { once: true });
      });
    },
  };
}

function once(release: Release): Release {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}
