import type { ProgressEvent } from '@renamer/contracts';

/** The events a batch's room forwards as they are. */
export type RoomEvent = Exclude<ProgressEvent, { type: 'batch.deleted' }>;

/**
 * Lets at most one `batch.status` per batch through every `intervalMs`, and always the last one. After a
 * status goes out, the batch's next status is held until the interval has passed, and a newer one
 * replaces it. The batch's other events are never held: one that arrives while a status is held goes out
 * at once and the held status is dropped, since it is older than that event (the tracker publishes a new
 * status after every image change). What goes out is thus what was published, in the same order, less
 * some statuses: a client never sees a status older than an image event it already has, and the batch's
 * last event, its final status, always goes out.
 */
export function createBatchStatusCoalescer(intervalMs: number, emit: (event: RoomEvent) => void) {
  /** Batches whose interval is running, with the status held until it ends. */
  const windows = new Map<string, { held: RoomEvent | undefined; timer: NodeJS.Timeout }>();

  function open(batchId: string) {
    const timer = setTimeout(() => close(batchId), intervalMs);
    timer.unref();
    windows.set(batchId, { held: undefined, timer });
  }

  function close(batchId: string) {
    const held = windows.get(batchId)?.held;
    windows.delete(batchId);
    if (!held) return;
    open(batchId);
    emit(held);
  }

  return {
    push(event: RoomEvent) {
      const window = windows.get(event.batchId);
      if (event.type !== 'batch.status') {
        if (window) window.held = undefined;
        return emit(event);
      }
      if (window) {
        window.held = event;
        return;
      }
      open(event.batchId);
      emit(event);
    },
    /** Sends the status held for the batch now and forgets the batch (it was deleted). */
    flush(batchId: string) {
      const window = windows.get(batchId);
      if (!window) return;
      clearTimeout(window.timer);
      windows.delete(batchId);
      if (window.held) emit(window.held);
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
