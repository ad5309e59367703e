import type { ProgressEvent } from '@renamer/contracts';

/** The events a batch's room forwards as they are. */
export type RoomEvent = Exclude<ProgressEvent, { type: 'batch.deleted' }>;

/**
 * Lets at most one `batch.status` per batch through every `intervalMs`, and always the last one. After a
 * status goes out, the batch's next status is held until the interval has passed; a newer status replaces
 * the held one, and the batch's other events that arrive meanwhile wait behind it. What goes out is thus
 * what was published, in the same order, less the statuses a newer one replaced: a client never sees a
 * status older than an image event it already has.
 */
export function createBatchStatusCoalescer(intervalMs: number, emit: (event: RoomEvent) => void) {
  /** Batches whose interval is running: the events held until it ends, oldest first. */
  const windows = new Map<string, { held: RoomEvent[]; timer: NodeJS.Timeout }>();

  function open(batchId: string) {
    const timer = setTimeout(() => close(batchId), intervalMs);
    timer.unref();
    windows.set(batchId, { held: [], timer });
  }

  function close(batchId: string) {
    const held = windows.get(batchId)?.held ?? [];
    windows.delete(batchId);
    // Held events always include a status (others wait only behind one), so sending them starts a new interval.
    if (held.length > 0) open(batchId);
    for (const event of held) emit(event);
  }

  return {
    push(event: RoomEvent) {
      const window = windows.get(event.batchId);
      if (!window) {
        if (event.type === 'batch.status') open(event.batchId);
        return emit(event);
      }
      if (event.type !== 'batch.status' && window.held.length === 0) return emit(event);
      if (event.type === 'batch.status') window.held = window.held.filter((held) => held.type !== 'batch.status');
      window.held.push(event);
    },
    /** Sends what is held for the batch now and forgets it (the batch was deleted). */
    flush(batchId: string) {
      const window = windows.get(batchId);
      if (!window) return;
      clearTimeout(window.timer);
      windows.delete(batchId);
      for (const event of window.held) emit(event);
    },
    /** Forgets the batch: nobody on this instance listens to it any more. */
    drop(batchId: string) {
      clearTimeout(windows.get(batchId)?.timer);
      windows.delete(batchId);
    },
    get size() {
      return windows.size;
    },
  };
}
