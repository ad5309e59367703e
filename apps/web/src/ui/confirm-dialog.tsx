import { type ReactNode, useEffect, useId, useLayoutEffect, useRef } from 'react';
import { ProblemLine } from './problem';

/**
 * A question asked before a change that touches many things or cannot be undone: a modal dialog (`showModal`) with
 * the action's own words on its button and a way out. The way out has the focus, so a habitual Enter changes
 * nothing; Esc is the way out too (unless `onEscape` says otherwise); the focus goes back to what opened it, also when
 * the dialog leaves the page still open (a caller that renders it only while asking).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirm,
  cancel = 'Cancel',
  danger = false,
  pending = false,
  error,
  onConfirm,
  onCancel,
  onEscape = onCancel,
}: {
  open: boolean;
  title: string;
  /** The question's particulars: what will happen, read out with the dialog (`aria-describedby`). */
  children: ReactNode;
  /** The button's words: what will happen ("Approve 37 images"). */
  confirm: string;
  /** The way out's words ("Keep it", "Skip them"). */
  cancel?: string;
  danger?: boolean;
  /** While the action's request runs: its button is disabled, so a second press sends nothing. */
  pending?: boolean;
  /** The action's failure, said inside the dialog (the page behind it is inert and may be hidden). */
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
  /** Esc, when it means something else than the way out's button (e.g. "send nothing" beside "Skip them"). */
  onEscape?: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const wayOut = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const described = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement as HTMLElement | null;
      element.showModal();
      wayOut.current?.focus();
    }
    if (!open && element.open) {
      element.close();
      opener.current?.focus({ preventScroll: true });
    }
  }, [open]);
  // Unmounted while open: closed while still in the page (a layout effect's clean-up runs before the element is
  // removed), and the focus given back.
  useLayoutEffect(() => {
    const element = dialog.current;
    return () => {
      if (!element?.open) return;
      element.close();
      opener.current?.focus({ preventScroll: true });
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm"
      aria-label={title}
      aria-describedby={described}
      // Esc: the browser's cancel, answered as the way out (the dialog closes when `open` turns false).
      onCancel={(event) => {
        event.preventDefault();
        onEscape();
      }}
    >
      <h2>{title}</h2>
      <div id={described}>{children}</div>
      <ProblemLine error={error} />
      <p className="actions">
        <button type="button" className={danger ? 'danger' : undefined} disabled={pending} onClick={onConfirm}>
          {confirm}
        </button>
        <button type="button" className="secondary" ref={wayOut} onClick={onCancel}>
          {cancel}
        </button>
      </p>
    </dialog>
  );
}
