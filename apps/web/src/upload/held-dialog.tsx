import { useEffect, useId, useRef } from 'react';

/** What the person chose for the files their account already holds; `cancel`: nothing is sent (Esc). */
export type HeldChoice = 'skip' | 'again' | 'cancel';

/**
 * Asked once per upload when some chosen files are already in the account (`POST /api/batch/check` named them): a
 * modal dialog (`showModal`) with "Skip them" (they are not sent, as before) and "Name them again here" (sent with
 * `duplicates=allow`: new images of this upload's batch, counted against the quota). "Skip them" has the focus, so a
 * habitual Enter costs no quota; Esc sends nothing and leaves the files chosen.
 */
export function HeldFilesDialog({
  held,
  total,
  onChoose,
}: {
  /** How many of the chosen files the account holds; the dialog is open while this is above 0. */
  held: number;
  total: number;
  onChoose: (choice: HeldChoice) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const skip = useRef<HTMLButtonElement>(null);
  const described = useId();
  const open = held > 0;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      skip.current?.focus();
    }
    if (!open && element.open) element.close();
  }, [open]);
  const photos = held === 1 ? 'photo' : 'photos';
  return (
    <dialog
      ref={dialog}
      className="confirm"
      aria-label="Photos already in your account"
      aria-describedby={described}
      onCancel={(event) => {
        event.preventDefault();
        onChoose('cancel');
      }}
    >
      <h2>Photos already in your account</h2>
      <div id={described}>
        <p>
          {total === 1
            ? 'This photo is already in your account.'
            : `${held} of these photos ${held === 1 ? 'is' : 'are'} already in your account.`}
        </p>
        <p className="meta">
          Skip them, or name them again here: each becomes a new image of this upload, with its own name, and counts
          towards this month's quota. The {photos} already in your account keep their names.
        </p>
      </div>
      <p className="actions">
        <button type="button" ref={skip} onClick={() => onChoose('skip')}>
          Skip them
        </button>
        <button type="button" className="secondary" onClick={() => onChoose('again')}>
          Name them again here
        </button>
      </p>
    </dialog>
  );
}
