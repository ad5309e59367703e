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
  /** Called once the dialog has closed, however it was closed. */
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  const closed = () => {
    // Chromium gives focus back by itself; said here for every browser, and for an opener React has re-rendered.
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus();
    onClose();
  };

  return (
    <dialog ref={dialog} className="shortcuts" aria-labelledby={titleId} onClose={closed}>
      <div className="shortcuts-head">
        <h2 id={titleId}>Keyboard shortcuts</h2>
        <button type="button" aria-keyshortcuts="Escape" onClick={() => dialog.current?.close()}>
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
