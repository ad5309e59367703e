// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

// jsdom has no showModal() or close(): the least of them (the open attribute, the close event), for this file only.
// The top layer, inertness and Esc are the browser's, tested in Chromium (e2e/web.test.ts).
const prototype = HTMLDialogElement.prototype;
const own = { showModal: prototype.showModal, close: prototype.close };
const showModal = vi.fn(function (this: HTMLDialogElement) {
  this.setAttribute('open', '');
});
beforeAll(() => {
  prototype.showModal = showModal;
  prototype.close = function (this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});
afterAll(() => Object.assign(prototype, own));
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
