import { useEffect, useId, useRef } from 'react';

/** A key or keys, as written for people (`Shift+A`), and what they do. */
export type Shortcut = readonly [keys: string, what: string];

/**
 * A control's shortcut shown beside its name (`Approve and next [a]`). Hidden from assistive technology, which
 * hears the name alone and the shortcut through the control's own `aria-keyshortcuts`.
 */
export function KeyHint({ keys }: { keys: string }) {
  return (
    <span className="key-hint" aria-hidden="true">
      <kbd>{keys}</kbd>
    </span>
  );
}

/**
 * The keyboard shortcuts in a modal dialog. Opened with `showModal()`: it is in the top layer, above every list
 * row and panel, the page behind it inert, focus on its close button. `Esc` closes it wherever focus is (the
 * browser's own cancel, which needs no key handler of ours), as does the close button; focus then goes back to
 * what had it when the dialog opened.
 */
export function ShortcutsDialog({
  open,
  shortcuts,
  onClose,
}: {
  open: boolean;
  shortcuts: readonly Shortcut[];
  /** Called when it is to close, however it was closed (the close button, Esc, or the browser); then `open` is false. */
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  /** Whether `onClose` was called since it opened: once for each opening, whichever way it closed. */
  const told = useRef(false);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      told.current = false;
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  // The state closes it, at once: the browser's `close` event comes in a task of its own, which a key pressed right
  // after can overtake (Chromium runs input first), and a `?` then would find it still open and open nothing.
  const close = () => {
    if (told.current) return;
    told.current = true;
    onClose();
  };
  const closed = () => {
    // A `close` event from before it was opened again is stale.
    if (dialog.current?.open) return;
    // Chromium gives focus back by itself; said here for every browser, and for an opener React has re-rendered.
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus();
    close();
  };

  return (
    // Esc: the browser's cancel, which closes it right after; the state follows in the same task.
    <dialog ref={dialog} className="shortcuts" aria-labelledby={titleId} onCancel={close} onClose={closed}>
      <div className="shortcuts-head">
        <h2 id={titleId}>Keyboard shortcuts</h2>
        <button type="button" aria-keyshortcuts="Escape" onClick={close}>
          Close <KeyHint keys="Esc" />
        </button>
      </div>
      <dl>
        {shortcuts.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </dialog>
  );
}
