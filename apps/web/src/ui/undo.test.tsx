// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNDO_MS, type Undoable, UndoToast, useUndo } from './undo';

/** A page with the notification, and the hook's latest answer to reach from the test. */
let latest: ReturnType<typeof useUndo>;
function Page() {
  latest = useUndo();
  return <UndoToast offered={latest.offered} onUndo={() => void latest.undo()} onDismiss={latest.dismiss} />;
}
const change = (label: string) => ({ label, run: vi.fn(async () => undefined) }) satisfies Undoable;
const offer = (undoable: Undoable) => act(() => latest.offer(undoable));
const toast = () => screen.getByRole('status', { hidden: true });

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the undo notification', () => {
  it('shows nothing until a change is offered, then its label and an Undo button', () => {
    render(<Page />);
    expect(toast().hidden).toBe(true);
    expect(screen.queryByRole('button', { name: /Undo/ })).toBeNull();

    offer(change('Approved red-shoes.jpg'));
    expect(toast().hidden).toBe(false);
    expect(toast().textContent).toContain('Approved red-shoes.jpg.');
    const undo = screen.getByRole('button', { name: 'Undo u' });
    expect(undo.getAttribute('aria-keyshortcuts')).toBe('u');
  });

  it('takes the change back once on Undo and hides; a second undo does nothing', async () => {
    render(<Page />);
    const approved = change('Approved red-shoes.jpg');
    offer(approved);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Undo u' })));
    expect(approved.run).toHaveBeenCalledTimes(1);
    expect(toast().hidden).toBe(true);
    expect(screen.queryByRole('button', { name: 'Undo u' })).toBeNull();

    // The `u` key after the click: the page calls the hook's undo again.
    await act(() => latest.undo());
    expect(approved.run).toHaveBeenCalledTimes(1);
  });

  it('is gone after UNDO_MS, and undo then does nothing', async () => {
    render(<Page />);
    const renamed = change('Renamed red-shoes.jpg');
    offer(renamed);

    act(() => vi.advanceTimersByTime(UNDO_MS - 1));
    expect(toast().hidden).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(toast().hidden).toBe(true);
    expect(screen.queryByRole('button', { name: 'Undo u' })).toBeNull();

    await act(() => latest.undo());
    expect(renamed.run).not.toHaveBeenCalled();
  });

  it('replaces an offer with a newer one, which undo takes back alone and which has its own ten seconds', async () => {
    render(<Page />);
    const first = change('Approved red-shoes.jpg');
    const second = change('Renamed blue-sky.jpg');
    offer(first);
    act(() => vi.advanceTimersByTime(UNDO_MS / 2));
    offer(second);
    expect(toast().textContent).toContain('Renamed blue-sky.jpg.');
    expect(toast().textContent).not.toContain('Approved red-shoes.jpg');

    // The first offer's ten seconds are over; the second's are not.
    act(() => vi.advanceTimersByTime(UNDO_MS / 2));
    expect(toast().hidden).toBe(false);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Undo u' })));
    expect(second.run).toHaveBeenCalledTimes(1);
    expect(first.run).not.toHaveBeenCalled();
    expect(toast().hidden).toBe(true);
  });

  it('dismisses without taking the change back', async () => {
    render(<Page />);
    const approved = change('Approved red-shoes.jpg');
    offer(approved);
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Dismiss' })));
    expect(toast().hidden).toBe(true);
    await act(() => latest.undo());
    expect(approved.run).not.toHaveBeenCalled();
  });
});
