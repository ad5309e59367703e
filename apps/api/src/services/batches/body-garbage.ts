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

/** How much spooled body between two collections: a 10-file request of 1 MB photos sees two. */
const RECLAIM_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * Node's HTTP parser copies every chunk of a request body into a Buffer of its own. Once spooled to disk the
 * copies are garbage, but V8 sees only their small handles and collects them late: the API's RSS rose by a
 * whole garbage cycle (about 32 MiB) during a request of 100 photos, and by 12–16 MiB during one of 10. A
 * young-generation collection after every RECLAIM_EVERY_BYTES of spooled body frees them as they go, so a
 * request of 100 photos takes no more memory than one of 10 (docs/benchmarks.md). Each is a pause of about a
 * millisecond that V8 would make anyway, only later. A smaller young generation for the whole process
 * (`--max-semi-space-size=2`) did the same for uploads and cost the authenticated status read 40–50 % more CPU.
 */
export function createBodyGarbageReclaimer(everyBytes = RECLAIM_EVERY_BYTES) {
  const collect = exposedGc();
  let sinceLast = 0;
  return {
    /** `bytes` more of a request body were spooled and are no longer referenced. */
    spooled(bytes: number): void {
      sinceLast += bytes;
      if (sinceLast < everyBytes) return;
      sinceLast = 0;
      collect({ type: 'minor' });
    },
  };
}
