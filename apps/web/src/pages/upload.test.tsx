// @vitest-environment jsdom
import { createHash } from 'node:crypto';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubModalDialogs } from '../../test/dialog';
import { fakeApi, renderWithQueries } from '../../test/render';
import { folderOf, isAcceptedImage, refusalSentence, sortChosen } from '../upload/choose';
import { UploadPage } from './upload';

const file = (name: string, type = '') => new File(['x'], name, { type, lastModified: 1 });

// Web Workers do not run in jsdom: the files are hashed here, in the page's order, as the workers would.
vi.mock('../upload/hash-files', () => ({
  hashFiles: async (files: readonly File[], onHashed: (done: number) => void) => {
    const hashes = await Promise.all(
      files.map(async (each) =>
        createHash('sha256')
          .update(await textOf(each))
          .digest('hex'),
      ),
    );
    onHashed(files.length);
    return hashes;
  },
}));
/** jsdom's File has no text(): read as a browser before it did. */
function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

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

/** The requests of POST /api/batch (sent by XMLHttpRequest, for its upload progress): each form's fields and files. */
/** Waits for the summary that takes the form's place once an upload ended. */
async function summarySays(sentence: RegExp) {
  await waitFor(() => expect(document.querySelector('.upload-summary [role="status"]')?.textContent).toMatch(sentence));
}

function fakeUploads() {
  const forms: { fields: Record<string, string>; files: string[] }[] = [];
  class FakeRequest {
    status = 0;
    responseText = '';
    upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    open() {}
    setRequestHeader() {}
    send(form: FormData) {
      const fields: Record<string, string> = {};
      const files: string[] = [];
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') fields[name] = value;
        else files.push(value.name);
      }
      forms.push({ fields, files });
      this.status = 201;
      this.responseText = JSON.stringify({
        batchId: crypto.randomUUID(),
        status: 'queued',
        total: files.length,
        accepted: files.map((originalFilename) => ({ imageId: crypto.randomUUID(), originalFilename })),
        rejected: [],
      });
      setTimeout(() => this.onload?.(), 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeRequest);
  return forms;
}

describe('uploading photos the account already holds', () => {
  stubModalDialogs();
  beforeEach(() => {
    // jsdom lays nothing out: the summary is scrolled into view in a browser only.
    Element.prototype.scrollIntoView = vi.fn();
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(cleanup);

  // As a browser's picker gives them (jsdom's File has no webkitRelativePath).
  const photo = (bytes: string, name: string) =>
    Object.defineProperty(new File([bytes], name, { type: 'image/jpeg', lastModified: 1 }), 'webkitRelativePath', {
      value: '',
    });
  const photos = () => [photo('held one', 'held-1.jpg'), photo('new one', 'new.jpg'), photo('held two', 'held-2.jpg')];
  const heldImage = '6f1c2d6e-3b8a-4f4e-9a57-3f0d1c2b4a10';

  async function chooseAndUpload() {
    const api = fakeApi({
      'POST /api/batch/check': ({ body }) => ({
        json: {
          existing: (body as { checksums: string[] }).checksums
            .filter((checksum) => checksum === sha256('held one') || checksum === sha256('held two'))
            .map((checksum) => ({ checksum, imageId: heldImage })),
        },
      }),
    });
    const forms = fakeUploads();
    renderWithQueries(<UploadPage onReview={() => {}} />);
    await userEvent.upload(screen.getByLabelText('Photos', { exact: true }), photos());
    await userEvent.click(screen.getByRole('button', { name: 'Upload 3 photos' }));
    const dialog = await screen.findByRole('dialog', { name: 'Photos already in your account' });
    return { api, forms, dialog };
  }

  it('asks once, and "Skip them" sends only the new photo, as before', async () => {
    const { forms, dialog } = await chooseAndUpload();
    expect(dialog.hasAttribute('open')).toBe(true);
    expect(dialog.textContent).toContain('2 of these photos are already in your account.');
    // The safe answer has the focus: a habitual Enter costs no quota.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Skip them' }));
    expect(forms).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Skip them' }));
    await summarySays(/1 uploaded, 2 already in your account, 0 refused/);
    expect(forms).toEqual([{ fields: { locale: 'en' }, files: ['new.jpg'] }]);
    expect(dialog.hasAttribute('open')).toBe(false);
  });

  it('"Name them again here" sends every photo with duplicates=allow', async () => {
    const { forms } = await chooseAndUpload();
    await userEvent.click(screen.getByRole('button', { name: 'Name them again here' }));
    await summarySays(/3 uploaded, 0 already in your account, 0 refused/);
    expect(forms).toEqual([
      { fields: { locale: 'en', duplicates: 'allow' }, files: ['held-1.jpg', 'new.jpg', 'held-2.jpg'] },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Esc sends nothing and leaves the photos chosen; no question when nothing is held', async () => {
    const { forms, dialog } = await chooseAndUpload();
    dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
    await waitFor(() => expect(dialog.hasAttribute('open')).toBe(false));
    expect(forms).toEqual([]);
    expect(screen.getByRole('button', { name: 'Upload 3 photos' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Remove held-1.jpg' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove held-2.jpg' }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload 1 photo' }));
    await summarySays(/1 uploaded, 0 already in your account, 0 refused/);
    expect(forms).toEqual([{ fields: { locale: 'en' }, files: ['new.jpg'] }]);
  });
});
