// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubModalDialogs } from '../../test/dialog';
import { ShortcutsDialog } from './shortcuts-dialog';

const showModal = stubModalDialogs();
afterEach(cleanup);

function Page({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Shortcuts
      </button>
      <ShortcutsDialog
        open={open}
        shortcuts={[
          ['a', 'approve'],
          ['Esc', 'back'],
        ]}
        onClose={() => {
          setOpen(false);
          onClose();
        }}
      />
    </>
  );
}

describe('the shortcuts dialog', () => {
  it('opens as a modal labelled by its title, lists the keys, and closes with its button, giving focus back', async () => {
    const onClose = vi.fn();
    render(<Page onClose={onClose} />);
    expect(screen.queryByRole('dialog')).toBeNull();

    const opener = screen.getByRole('button', { name: 'Shortcuts' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(dialog.textContent).toContain('approve');
    expect([...dialog.querySelectorAll('dt kbd')].map((key) => key.textContent)).toEqual(['a', 'Esc']);

    // The close button's name is "Close": its key hint is for the eye; assistive technology has aria-keyshortcuts.
    const close = screen.getByRole('button', { name: 'Close' });
    expect(close.getAttribute('aria-keyshortcuts')).toBe('Escape');
    await userEvent.click(close);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(opener);

    // Opened again after closing: the same element, shown as a modal again.
    await userEvent.click(opener);
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBe(dialog);
    expect(showModal).toHaveBeenCalledTimes(2);
  });
});
