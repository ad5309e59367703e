import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a change can be taken back from its notification. */
export const UNDO_MS = 10_000;

/** A change just made, and how to take it back. */
export interface Undoable {
  label: string;
  run: () => Promise<unknown>;
}

/**
 * The last change, offered for undoing for `UNDO_MS`: `offer` replaces what was offered, `undo` takes it back
 * once (and clears it, so a second press does nothing).
 */
export function useUndo() {
  const [offered, setOffered] = useState<Undoable>();
  // What Undo takes back, read and cleared at once: two presses before the next render undo it once.
  const pending = useRef<Undoable | undefined>(undefined);
  useEffect(() => {
    pending.current = offered;
    if (!offered) return;
    const timer = setTimeout(() => setOffered(undefined), UNDO_MS);
    return () => clearTimeout(timer);
  }, [offered]);
  const undo = useCallback(async () => {
    const change = pending.current;
    pending.current = undefined;
    setOffered(undefined);
    await change?.run();
  }, []);
  return { offered, offer: setOffered, undo, dismiss: () => setOffered(undefined) };
}

/** The notification of the last change: what it was, an Undo button (and the key that does the same). */
export function UndoToast({
  offered,
  onUndo,
  onDismiss,
}: {
  offered: Undoable | undefined;
  onUndo: () => void;
  onDismiss: () => void;
}) {
  return (
    <div role="status" className="toast" hidden={!offered}>
      {offered && (
        <>
          <span>{offered.label}.</span>
          <button type="button" className="secondary" aria-keyshortcuts="u" onClick={onUndo}>
            Undo <kbd>u</kbd>
          </button>
          <button type="button" className="secondary" aria-label="Dismiss" onClick={onDismiss}>
            ×
          </button>
        </>
      )}
    </div>
  );
}
