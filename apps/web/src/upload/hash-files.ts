/** Hashes `files` in a few workers (at most 4, one per core), in the files' order; `onHashed` tells progress. */
export async function hashFiles(files: readonly File[], onHashed: (done: number) => void): Promise<string[]> {
  const size = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 4, files.length));
  const hashes: string[] = new Array(files.length);
  let next = 0;
  let done = 0;
  const workers = Array.from(
    { length: size },
    () => new Worker(new URL('./hash-worker.ts', import.meta.url), { type: 'module' }),
  );
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const feed = () => {
              if (next >= files.length) return resolve();
              const id = next++;
              worker.postMessage({ id, file: files[id] });
            };
            worker.onmessage = (event: MessageEvent<{ id: number; sha256: string }>) => {
              hashes[event.data.id] = event.data.sha256;
              onHashed(++done);
              feed();
            };
            worker.onerror = (event) => reject(new Error(event.message));
            feed();
          }),
      ),
    );
    return hashes;
  } finally {
    for (const worker of workers) worker.terminate();
  }
}
