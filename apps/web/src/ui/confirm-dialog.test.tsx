// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubModalDialogs } from '../../test/dialog';
import { ApiProblem } from '../api/client';
import { ConfirmDialog } from './confirm-dialog';

const showModal = stubModalDialogs();
afterEach(() => {
  cleanup();
  showModal.mockClear();
});

/** A page asking before approving everything, as the review page does: the dialog closes on either answer. */
function Page({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Approve all
      </button>
      <ConfirmDialog
        open={open}
        title="Approve every image to review?"
        confirm="Approve 37 images"
        onConfirm={() => {
          setOpen(false);
          onConfirm();
        }}
        onCancel={() => {
          setOpen(false);
          onCancel();
        }}
      >
        <p>37 images keep their names and are marked approved.</p>
      </ConfirmDialog>
    </>
  );
}

async function openDialog() {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(<Page onConfirm={onConfirm} onCancel={onCancel} />);
  expect(screen.queryByRole('dialog')).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Approve all' }));
  const dialog = screen.getByRole('dialog', { name: 'Approve every image to review?' }) as HTMLDialogElement;
  return { dialog, onConfirm, onCancel };
}

describe('the confirm dialog', () => {
  it('opens as a modal named by its title, with its question, the action in its own words and a way out', async () => {
    const { dialog, onConfirm, onCancel } = await openDialog();
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('heading', { name: 'Approve every image to review?' })).toBeTruthy();
    expect(dialog.textContent).toContain('37 images keep their names and are marked approved.');
    expect(screen.getByRole('button', { name: 'Approve 37 images' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('does the action on its button, once, and closes', async () => {
    const { onConfirm } = await openDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Approve 37 images' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('leaves without the action on Cancel', async () => {
    const { onConfirm, onCancel } = await openDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();

    // And opens again as a modal.
    await userEvent.click(screen.getByRole('button', { name: 'Approve all' }));
    expect(screen.getByRole('dialog', { name: 'Approve every image to review?' })).toBeTruthy();
    expect(showModal).toHaveBeenCalledTimes(2);
  });

  it('leaves without the action on Esc (the browser closes a modal dialog after its cancel event)', async () => {
    const { dialog, onConfirm, onCancel } = await openDialog();
    act(() => {
      if (dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) dialog.close();
    });
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

/**
 * A page deleting something only once asked, as the Batches page does: the dialog is in the page only while asking,
 * says the way out in its own words, and stays open while the request runs, saying a failure inside it.
 */
function DeletingPage({ remove }: { remove: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();
  const [deleted, setDeleted] = useState(false);
  return (
    <>
      {deleted ? <p>Deleted.</p> : <p>Beach day</p>}
      <button type="button" onClick={() => setAsking(true)}>
        Delete Beach day
      </button>
      {asking && (
        <ConfirmDialog
          open
          title="Delete “Beach day”?"
          confirm="Delete"
          cancel="Keep it"
          danger
          pending={pending}
          error={error}
          onConfirm={() => {
            setPending(true);
            remove().then(
              () => {
                setPending(false);
                setAsking(false);
                setDeleted(true);
              },
              (failure: unknown) => {
                setPending(false);
                setError(failure);
              },
            );
          }}
          onCancel={() => {
            setAsking(false);
            setError(undefined);
          }}
        >
          <p>Its 2 images, their names and their previews are removed for good.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** A question whose Esc is its own answer, as on the upload page: Esc sends nothing, the way out sends part. */
function Asking({ answers }: { answers: string[] }) {
  const [open, setOpen] = useState(true);
  const answer = (choice: string) => {
    answers.push(choice);
    setOpen(false);
  };
  return (
    <ConfirmDialog
      open={open}
      title="Send the 2 held photos?"
      confirm="Send all"
      cancel="Send the new ones"
      onConfirm={() => answer('all')}
      onCancel={() => answer('new')}
      onEscape={() => answer('nothing')}
    >
      <p>Or Esc to send nothing.</p>
    </ConfirmDialog>
  );
}

describe('the confirm dialog for a request', () => {
  it('has the way out in its own words, focused (Enter by habit keeps things), and describes itself by its question', async () => {
    const remove = vi.fn(async () => {});
    render(<DeletingPage remove={remove} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Beach day' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Beach day”?' });
    const keep = screen.getByRole('button', { name: 'Keep it' });
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(document.activeElement).toBe(keep);
    expect(keep.className).toBe('secondary');
    expect(screen.getByRole('button', { name: 'Delete' }).className).toBe('danger');
    const question = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(question?.textContent).toBe('Its 2 images, their names and their previews are removed for good.');

    await userEvent.keyboard('{Enter}');
    expect(remove).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Beach day')).toBeTruthy();
  });

  it('closes when the page takes it away while open, and gives the focus back to what opened it', async () => {
    render(<DeletingPage remove={async () => {}} />);
    const opener = screen.getByRole('button', { name: 'Delete Beach day' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog') as HTMLDialogElement;
    const closed = vi.fn();
    dialog.addEventListener('close', closed);
    await userEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(closed).toHaveBeenCalledTimes(1);
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('disables its action while the request runs (a second press sends nothing), and closes once it is done', async () => {
    let finish = () => {};
    const remove = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<DeletingPage remove={remove} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Beach day' }));
    const del = screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    await userEvent.click(del);
    expect(del.disabled).toBe(true);
    await userEvent.click(del);
    expect(remove).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('dialog', { name: 'Delete “Beach day”?' })).toBeTruthy();

    await act(async () => finish());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Deleted.')).toBeTruthy();
  });

  it('says a refused request inside the dialog, as an alert with what to do next, and can be tried again', async () => {
    const remove = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(new ApiProblem(503, 'unavailable', 'The database is not answering.'))
      .mockResolvedValueOnce(undefined);
    render(<DeletingPage remove={remove} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Beach day' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Beach day”?' });
    const alert = await screen.findByRole('alert');
    expect(dialog.contains(alert)).toBe(true);
    expect(alert.textContent).toBe(
      'The database is not answering. A part of the service is not answering. Try again in a few seconds.',
    );
    expect((screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(remove).toHaveBeenCalledTimes(2);
    expect(screen.getByText('Deleted.')).toBeTruthy();
  });

  it('answers Esc with its own answer when Esc means something else than the way out', async () => {
    const answers: string[] = [];
    render(<Asking answers={answers} />);
    const dialog = screen.getByRole('dialog', { name: 'Send the 2 held photos?' }) as HTMLDialogElement;
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Send the new ones' }));
    act(() => {
      if (dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) dialog.close();
    });
    expect(answers).toEqual(['nothing']);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
