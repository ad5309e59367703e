// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithQueries } from '../../test/render';
import { folderOf, isAcceptedImage, refusalSentence, sortChosen } from '../upload/choose';
import { UploadPage } from './upload';

const file = (name: string, type = '') => new File(['x'], name, { type, lastModified: 1 });

describe('which files the upload takes', () => {
  it('judges by the extension the format table lists, else by the declared type, and never a hidden file', () => {
    expect(isAcceptedImage(file('IMG_1.JPG'))).toBe(true);
    expect(isAcceptedImage(file('scan.tiff'))).toBe(true);
    expect(isAcceptedImage(file('DSC_1.NEF'))).toBe(true);
    expect(isAcceptedImage(file('phone.HEIC'))).toBe(true);
    expect(isAcceptedImage(file('notes.txt', 'text/plain'))).toBe(false);
    // An extension the table does not list is refused whatever the declared type says.
    expect(isAcceptedImage(file('logo.svg', 'image/svg+xml'))).toBe(false);
    expect(isAcceptedImage(file('camera-export', 'image/jpeg'))).toBe(true);
    expect(isAcceptedImage(file('camera-export', 'image/svg+xml'))).toBe(false);
    expect(isAcceptedImage(file('.DS_Store'))).toBe(false);
  });

  it('says the refused files once, leaves hidden ones out without a word, and names a picked folder', () => {
    const { accepted, refused } = sortChosen([file('a.jpg'), file('notes.txt'), file('.DS_Store'), file('b.png')]);
    expect(accepted.map((each) => each.name)).toEqual(['a.jpg', 'b.png']);
    expect(refused).toEqual(['notes.txt']);
    expect(refusalSentence(refused)).toBe('notes.txt is not an image the service takes.');
    expect(refusalSentence(['a.txt', 'b.pdf'])).toBe('a.txt and b.pdf are not images the service takes.');
    expect(refusalSentence([])).toBeUndefined();
    expect(
      folderOf([{ webkitRelativePath: 'summer-shoot/a.jpg' }, { webkitRelativePath: 'summer-shoot/x/b.jpg' }]),
    ).toBe('summer-shoot');
    expect(folderOf([{ webkitRelativePath: '' }])).toBeUndefined();
  });
});

describe('the upload page', () => {
  const created: string[] = [];
  const revoked: string[] = [];
  beforeEach(() => {
    created.length = 0;
    revoked.length = 0;
    URL.createObjectURL = vi.fn(() => {
      created.push(`blob:${created.length}`);
      return created.at(-1)!;
    });
    URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
  });
  afterEach(cleanup);

  it('counts only photos, shows each with a thumbnail or its format, and removes one, freeing its thumbnail', async () => {
    fakeApi({});
    renderWithQueries(<UploadPage onReview={() => {}} />);
    await userEvent.upload(
      screen.getByLabelText('Photos', { exact: true }),
      [
        file('IMG_1.JPG', 'image/jpeg'),
        file('IMG_2.JPG', 'image/jpeg'),
        file('notes.txt', 'text/plain'),
        file('DSC_3.NEF'),
      ],
      { applyAccept: false },
    );
    expect(screen.getByRole('button', { name: 'Upload 3 photos' })).toBeTruthy();
    expect(screen.getByText('notes.txt is not an image the service takes.')).toBeTruthy();
    const chosen = screen.getByRole('list', { name: 'Chosen photos' });
    expect(chosen.querySelectorAll('li')).toHaveLength(3);
    expect([...chosen.querySelectorAll('img')].map((image) => image.getAttribute('src'))).toEqual(['blob:0', 'blob:1']);
    expect(chosen.textContent).toContain('NEF');
    expect(chosen.textContent).not.toContain('notes.txt');

    await userEvent.click(screen.getByRole('button', { name: 'Remove IMG_1.JPG' }));
    expect(screen.getByRole('button', { name: 'Upload 2 photos' })).toBeTruthy();
    expect(revoked).toEqual(['blob:0']);

    // The same file picked again is not listed twice.
    await userEvent.upload(screen.getByLabelText('Photos', { exact: true }), [file('IMG_2.JPG', 'image/jpeg')]);
    expect(screen.getByRole('button', { name: 'Upload 2 photos' })).toBeTruthy();
  });
});
