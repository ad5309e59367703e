import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type CollectGarbage = (options: { type: 'minor' }) => void;

/** V8's own `gc`, made available without a command-line flag (the same function `--expose-gc` gives). */
function exposedGc(): CollectGarbage {
  const existing = (globalThis as { gc?: CollectGarbage }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as CollectGarbage;
}

/** How much read request body between two collections: a 10-file request of 1 MB photos sees two. */
const EVERY_BYTES = 4 * 1024 * 1024;

/**
 * The GC nudge: the one place the API flips a V8 flag. Node's HTTP parser copies every chunk of a request body
 * into a Buffer of its own. Once read (and spooled to disk) the copies are garbage, but V8 sees only their small
 * handles and collects them late, so a request whose body passes one garbage cycle (about 32 MiB) takes its whole
 * height in RSS and one of 10 photos never gets there. A young-generation collection after every EVERY_BYTES of
 * body frees them as they go. Each is a pause of about a millisecond that V8 would make anyway, only later.
 *
 * What keeps it, measured on 2026-11-27 (2 vCPUs, load average 1.2–1.7, docs/benchmarks.md), with and without it:
 * - `bench/upload.ts` (one request of 50 × 12 MP JPEGs, 179 MB): peak RSS +20.4 and +20.4 MiB over idle with it,
 *   +42.6 and +44.2 without; 80.8 and 78.6 MB/s with it, 71.5 and 78.6 without (API CPU 3.1–3.2 s against 3.1–3.5).
 * - `bench/upload-memory.ts --cases=f,c --fresh`: 100 × 1 MB +13.7 MiB and 10 × 1 MB +9.6 with it; +38.0 and +17.1
 *   without, so a request of 100 photos takes no more memory than one of 10 only with it.
 * A smaller young generation for the whole process (`--max-semi-space-size=2`) did the same for uploads and cost
 * the authenticated status read 40–50 % more CPU (2026-11-26).
 */
export function createGcNudge(everyBytes = EVERY_BYTES) {
  const collect = exposedGc();
  let sinceLast = 0;
  return {
    /** `bytes` more of a request body were read and are no longer referenced. */
    bodyRead: (bytes: number): void => {
      sinceLast += bytes;
      if (sinceLast < everyBytes) return;
      sinceLast = 0;
      collect({ type: 'minor' });
    },
  };
}
