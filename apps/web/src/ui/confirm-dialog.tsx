import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A question asked before a change that touches many things: a modal dialog (`showModal`) with the action's own
 * words on its button and a way out. The way out has the focus, so a habitual Enter changes nothing; Esc is the
 * way out too; the focus goes back to what opened it.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirm,
  danger = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  /** The button's words: what will happen ("Approve 37 images"). */
  confirm: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const described = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement as HTMLElement | null;
      element.showModal();
      cancel.current?.focus();
    }
    if (!open && element.open) {
      element.close();
      opener.current?.focus({ preventScroll: true });
    }
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="confirm"
      aria-label={title}
      aria-describedby={described}
      // Esc: the browser's cancel, answered as the way out (the dialog closes when `open` turns false).
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2>{title}</h2>
      <div id={described}>{children}</div>
      <p className="actions">
        <button type="button" className={danger ? 'danger' : undefined} onClick={onConfirm}>
          {confirm}
        </button>
        <button type="button" className="secondary" ref={cancel} onClick={onCancel}>
          Cancel
        </button>
      </p>
    </dialog>
  );
}
