import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A question asked before a change that touches many things: a modal dialog (`showModal`) with the action's own
 * words on its button and a way out; Esc is the way out too.
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
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="confirm" aria-label={title} onClose={onCancel}>
      <h2>{title}</h2>
      {children}
      <p className="actions">
        <button type="button" className={danger ? 'danger' : undefined} onClick={onConfirm}>
          {confirm}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </dialog>
  );
}
