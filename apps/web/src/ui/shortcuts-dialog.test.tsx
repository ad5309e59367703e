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

  it('opens again at once after closing, before the browser’s close event has come (as a key pressed right after does)', async () => {
    const onClose = vi.fn();
    render(<Page onClose={onClose} />);
    const prototype = HTMLDialogElement.prototype;
    const stubbed = prototype.close;
    // As browsers do: the `close` event in a task of its own, after what comes next.
    prototype.close = function (this: HTMLDialogElement) {
      if (!this.open) return;
      this.removeAttribute('open');
      setTimeout(() => this.dispatchEvent(new Event('close')), 20);
    };
    try {
      const opener = screen.getByRole('button', { name: 'Shortcuts' });
      await userEvent.click(opener);
      await userEvent.click(screen.getByRole('button', { name: 'Close' }));
      await userEvent.click(opener);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' }).hasAttribute('open')).toBe(true);
      expect(onClose).toHaveBeenCalledTimes(1);
    } finally {
      prototype.close = stubbed;
    }
  });
});
