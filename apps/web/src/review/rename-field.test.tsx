// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { imageView } from '../../test/image-view';
import { fakeApi, renderWithQueries, type SentRequest } from '../../test/render';
import { RenameField } from './rename-field';

const IMAGE = imageView();
const TAKEN = 'taken-name';

/**
 * What the server's filename check answers: the typed name with its extension and a score, except the name another
 * image of the batch already has, and any shorter than four letters (so a check of a half-typed name is refused).
 */
const checkAnswer = ({ body }: SentRequest) => {
  const { filename } = body as { filename: string };
  if (filename === TAKEN || filename.length < 4) {
    return {
      json: {
        filename: null,
        valid: false,
        errors: [{ path: 'filename', message: 'Another image of the batch has this name.', code: 'filename_conflict' }],
        seo: null,
      },
    };
  }
  return { json: { filename: `${filename}.jpg`, valid: true, errors: [], seo: { score: 80, reasons: [] } } };
};
const checks = (sent: SentRequest[]) =>
  sent.filter((request) => request.url.pathname === '/api/image/filename-check').map((request) => request.body);

afterEach(cleanup);

describe('renaming an image', () => {
  it('saves exactly what was typed when Enter comes before the debounce, once the server has checked that text', async () => {
    const { sent } = fakeApi({ 'POST /api/image/filename-check': checkAnswer });
    let checkedBeforeSave: unknown[] = [];
    const onSave = vi.fn(async (_name: string) => {
      checkedBeforeSave = checks(sent);
    });
    renderWithQueries(<RenameField image={IMAGE} onSave={onSave} onCancel={() => undefined} />);
    const user = userEvent.setup();
    const field = screen.getByLabelText('New name');
    expect(document.activeElement).toBe(field);
    expect((field as HTMLTextAreaElement).value).toBe('blue-sky.jpg');

    await user.clear(field);
    await user.type(field, 'red-shoes-on-grass{Enter}');

    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith('red-shoes-on-grass');
    // The save waited for the check of the whole name, not of what the debounce had settled on.
    expect(checkedBeforeSave.at(-1)).toEqual({ filename: 'red-shoes-on-grass', imageId: IMAGE.id });
    // Enter adds no line to the name.
    expect((field as HTMLTextAreaElement).value).toBe('red-shoes-on-grass');
    // And once typing rests, the field says what the name becomes.
    expect((await screen.findByText('→ red-shoes-on-grass.jpg · score 80')).id).toBe(
      field.getAttribute('aria-describedby'),
    );
    expect(onSave).toHaveBeenCalledTimes(1);
  });

  it('does not save a name the check refuses, and shows why', async () => {
    const { sent } = fakeApi({ 'POST /api/image/filename-check': checkAnswer });
    const onSave = vi.fn(async () => undefined);
    renderWithQueries(<RenameField image={IMAGE} onSave={onSave} onCancel={() => undefined} />);
    const user = userEvent.setup();
    const field = screen.getByLabelText('New name');
    await user.clear(field);
    await user.type(field, `${TAKEN}{Enter}`);

    expect((await screen.findByText('Another image of the batch has this name.')).id).toBe(
      field.getAttribute('aria-describedby'),
    );
    await waitFor(() => expect(checks(sent)).toContainEqual({ filename: TAKEN, imageId: IMAGE.id }));
    expect(onSave).not.toHaveBeenCalled();
    // The Save button is usable again once the check has answered.
    expect((screen.getByRole('button', { name: 'Save Enter' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('leaves with Esc without saving', async () => {
    fakeApi({ 'POST /api/image/filename-check': checkAnswer });
    const onSave = vi.fn(async () => undefined);
    const onCancel = vi.fn();
    renderWithQueries(<RenameField image={IMAGE} onSave={onSave} onCancel={onCancel} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New name'), '-x{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onSave).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Cancel Esc' }));
    expect(onCancel).toHaveBeenCalledTimes(2);
  });

  it('saves with the Save button as with Enter: the typed name, checked, and a refused one not', async () => {
    const { sent } = fakeApi({ 'POST /api/image/filename-check': checkAnswer });
    const onSave = vi.fn(async (_name: string) => undefined);
    renderWithQueries(<RenameField image={IMAGE} onSave={onSave} onCancel={() => undefined} />);
    const user = userEvent.setup();
    const field = screen.getByLabelText('New name');
    const save = screen.getByRole('button', { name: 'Save Enter' });

    await user.clear(field);
    await user.type(field, TAKEN);
    await user.click(save);
    await screen.findByText('Another image of the batch has this name.');
    expect(onSave).not.toHaveBeenCalled();

    await user.clear(field);
    await user.type(field, 'green-hat');
    await user.click(save);
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith('green-hat');
    expect(checks(sent)).toContainEqual({ filename: 'green-hat', imageId: IMAGE.id });
    expect(screen.queryByText('Another image of the batch has this name.')).toBeNull();
  });
});
