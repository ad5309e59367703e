import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { photo } from '@renamer/api/testing';
import { testDir } from '@renamer/runtime/testing';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readAsPage, seriousViolations } from '../support/browser';
import { dialogState, hasFocus, inViewport, signIn, VIEWPORTS, type WebApp, watchedPage } from '../support/web-app';

/** The parts of the page's globals the drag and drop below uses, in a file compiled without the DOM's types. */
interface DropWindow {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  DragEvent: new (
    type: string,
    init: { bubbles: boolean; cancelable: boolean; dataTransfer: unknown },
  ) => { defaultPrevented: boolean };
  atob(data: string): string;
  document: { querySelector(selector: string): { dispatchEvent(event: unknown): boolean } | null };
}

/** Fires a drag event carrying `files` (built in the page) at the element `selector` picks; whether the page took it. */
async function dragEvent(
  page: Page,
  selector: string,
  type: string,
  files: { name: string; type: string; base64: string }[],
) {
  return page.evaluate(
    ({ selector, type, files }) => {
      const view = globalThis as unknown as DropWindow;
      const data = new view.DataTransfer();
      for (const file of files) {
        const bytes = Uint8Array.from(view.atob(file.base64), (char) => char.charCodeAt(0));
        data.items.add(new view.File([bytes], file.name, { type: file.type }));
      }
      const event = new view.DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data });
      view.document.querySelector(selector)?.dispatchEvent(event);
      return event.defaultPrevented;
    },
    { selector, type, files },
  );
}

/** Each picture's `naturalWidth`: above 0 once the browser has drawn it. */
const naturalWidths = (images: Locator) =>
  images.evaluateAll((elements) =>
    elements.map((element) => (element as unknown as { naturalWidth: number }).naturalWidth),
  );

const jpeg = async (name: string, seed: number) => ({
  name,
  mimeType: 'image/jpeg',
  buffer: await photo('jpeg', seed),
});

/**
 * A page signed in as a person of its own. The browser context (one cookie store) is shared with every other case,
 * which may rely on the session it holds: that session is put back by `done`.
 */
async function pageAs(app: WebApp, email: string, name: string, size: { width: number; height: number }) {
  const saved = await app.context.cookies();
  const { page, errors } = await watchedPage(app);
  await page.setViewportSize(size);
  await signIn(app, page, email, name);
  const done = async () => {
    await page.close();
    await app.context.clearCookies();
    await app.context.addCookies(saved);
  };
  return { page, errors, done };
}

interface Batches {
  items: { batchId: string; name: string | null; total: number }[];
}

/** Registered by e2e/web.test.ts, on its stack and browser. */
export function uploadCases(app: WebApp) {
  describe('upload and batches (issue 28: the window as a drop target, accepted files with thumbnails, batch names and deletion)', () => {
    for (const [width, size] of Object.entries(VIEWPORTS)) {
      it(`at ${size.width}×${size.height}: takes a drop anywhere with a highlight, counts and shows only photos with thumbnails, removes one, and after Upload shows the summary and the batch's names in view`, async () => {
        const { page, errors, done } = await pageAs(app, `upload-desk-${width}@renamer.test`, 'Uma', size);
        await page.getByRole('heading', { name: 'Upload photos' }).waitFor();

        // Two photos and a text file: the text file is said once, not listed and not counted.
        const photos = [await jpeg('IMG_401.JPG', 401), await jpeg('IMG_402.JPG', 402)];
        await page
          .getByLabel('Photos', { exact: true })
          .setInputFiles([...photos, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('shot list') }]);
        const chosen = page.getByRole('list', { name: 'Chosen photos' });
        await page.getByRole('button', { name: 'Upload 2 photos' }).waitFor();
        await page.getByText('notes.txt is not an image the service takes.').waitFor();
        expect(await chosen.getByRole('listitem').count()).toBe(2);
        expect(await chosen.getByText('notes.txt').count()).toBe(0);
        // Each a thumbnail the browser has drawn.
        await expect.poll(() => naturalWidths(chosen.locator('img'))).toEqual([expect.any(Number), expect.any(Number)]);
        expect((await naturalWidths(chosen.locator('img'))).every((value) => value > 0)).toBe(true);

        // A camera RAW file: counted, shown with a placeholder naming its format, and removed again.
        await page
          .getByLabel('Photos', { exact: true })
          .setInputFiles([
            { name: 'DSC_0001.NEF', mimeType: 'application/octet-stream', buffer: Buffer.from('raw bytes') },
          ]);
        await page.getByRole('button', { name: 'Upload 3 photos' }).waitFor();
        expect(await chosen.getByRole('listitem').last().textContent()).toMatch(/^NEFDSC_0001\.NEF/);
        await page.getByRole('button', { name: 'Remove DSC_0001.NEF' }).click();
        await page.getByRole('button', { name: 'Upload 2 photos' }).waitFor();

        // Files dragged over the page, far from the drop zone: the whole window is highlighted, and the drop is the
        // page's (the browser does not open the photo in place of the app).
        const address = page.url();
        const dropped = [
          { name: 'IMG_403.JPG', type: 'image/jpeg', base64: (await photo('jpeg', 403)).toString('base64') },
        ];
        const highlight = page.getByTestId('drop-highlight');
        expect(await highlight.count()).toBe(0);
        expect(await dragEvent(page, 'h2', 'dragenter', dropped)).toBe(true);
        expect(await dragEvent(page, 'h2', 'dragover', dropped)).toBe(true);
        await highlight.waitFor();
        // The whole window (less a scroll bar, if any).
        const box = await highlight.boundingBox();
        expect(box).toMatchObject({ x: 0, y: 0, height: size.height });
        expect(box?.width).toBeGreaterThan(size.width - 20);
        expect(await dragEvent(page, 'h2', 'drop', dropped)).toBe(true);
        await highlight.waitFor({ state: 'detached' });
        await page.getByRole('button', { name: 'Upload 3 photos' }).waitFor();
        expect(page.url()).toBe(address);
        // Esc takes the highlight away too (a drag abandoned).
        await dragEvent(page, 'body', 'dragover', dropped);
        await highlight.waitFor();
        await page.keyboard.press('Escape');
        await highlight.waitFor({ state: 'detached' });

        // Remove takes a file out of the list and the count.
        await page.getByRole('button', { name: 'Remove IMG_403.JPG' }).click();
        await page.getByRole('button', { name: 'Upload 2 photos' }).waitFor();
        expect(await chosen.getByText('IMG_403.JPG').count()).toBe(0);
        expect(await seriousViolations(page)).toEqual([]);

        // After Upload: a summary in place of the form, and the batch's names, with thumbnails, in view.
        await page.getByRole('button', { name: 'Upload 2 photos' }).click();
        await page.getByText('2 uploaded, 0 already in your account, 0 refused.').waitFor();
        expect(await chosen.count()).toBe(0);
        const firstName = page.getByTestId('proposed-name').first();
        await expect.poll(() => firstName.textContent(), { timeout: 30_000 }).toMatch(/\.jpg$/);
        expect(await inViewport(firstName)).toBe(true);
        const batchImages = page.getByRole('list', { name: /^Images of / });
        await expect
          .poll(async () => (await naturalWidths(batchImages.locator('img'))).filter((value) => value > 0).length, {
            timeout: 30_000,
          })
          .toBe(2);
        expect(await seriousViolations(page)).toEqual([]);

        // Upload more: the form again, the list empty.
        await page.getByRole('button', { name: 'Upload more photos' }).click();
        expect(await page.getByRole('button', { name: 'Upload 0 photos' }).isDisabled()).toBe(true);
        expect(await chosen.count()).toBe(0);
        await page.getByText('No photos chosen yet.').waitFor();
        expect(errors).toEqual([]);
        await done();
      }, 90_000);

      it(`at ${size.width}×${size.height}: asks once about photos already in the account, and names them again as a new batch when asked to`, async () => {
        const { page, errors, done } = await pageAs(app, `upload-again-${width}@renamer.test`, 'Ada', size);
        await page.getByRole('heading', { name: 'Upload photos' }).waitFor();
        const held = [await jpeg('IMG_421.JPG', 421), await jpeg('IMG_422.JPG', 422)];
        await page.getByLabel('Photos', { exact: true }).setInputFiles(held);
        await page.getByRole('button', { name: 'Upload 2 photos' }).click();
        await page.getByText('2 uploaded, 0 already in your account, 0 refused.').waitFor();
        const quota = () => readAsPage<{ used: number }>(page, '/api/auth/quota');
        expect((await quota()).used).toBe(2);

        // The same two and a new one: one question for the upload, a modal dialog with the safe answer focused.
        await page.getByRole('button', { name: 'Upload more photos' }).click();
        await page.getByLabel('Photos', { exact: true }).setInputFiles([...held, await jpeg('IMG_423.JPG', 423)]);
        await page.getByRole('button', { name: 'Upload 3 photos' }).click();
        const dialog = page.getByRole('dialog', { name: 'Photos already in your account' });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain('2 of these photos are already in your account.');
        expect(await dialogState(dialog)).toMatchObject({ modal: true, inView: true, focusInside: true });
        expect(await hasFocus(dialog.getByRole('button', { name: 'Skip them' }))).toBe(true);
        expect(await seriousViolations(page)).toEqual([]);

        await dialog.getByRole('button', { name: 'Name them again here' }).click();
        await page.getByText('3 uploaded, 0 already in your account, 0 refused.').waitFor();
        expect(await dialog.isVisible()).toBe(false);
        // Counted against the quota, in a batch of their own beside the first.
        expect((await quota()).used).toBe(5);
        const batches = await readAsPage<Batches>(page, '/api/batch');
        expect(batches.items.map((batch) => batch.total)).toEqual([3, 2]);
        expect(errors).toEqual([]);
        await done();
      }, 90_000);

      it(`at ${size.width}×${size.height}: names a batch after the folder picked, renames it on the Batches page, and deletes it only once asked`, async () => {
        const { page, errors, done } = await pageAs(app, `upload-batches-${width}@renamer.test`, 'Bo', size);
        const folder = join(testDir(`web-upload-${width}`), 'summer-shoot');
        mkdirSync(folder, { recursive: true });
        for (const seed of [411, 412]) writeFileSync(join(folder, `IMG_${seed}.JPG`), await photo('jpeg', seed));
        writeFileSync(join(folder, 'notes.txt'), 'shot list');

        await page.getByLabel('A folder').setInputFiles(folder);
        await page.getByRole('button', { name: 'Upload 2 photos' }).waitFor();
        expect(await page.getByLabel(/^Batch name/).inputValue()).toBe('summer-shoot');
        await page.getByRole('button', { name: 'Upload 2 photos' }).click();
        await page.getByText('2 uploaded, 0 already in your account, 0 refused.').waitFor();
        await page.getByRole('heading', { name: 'summer-shoot' }).waitFor();
        expect((await readAsPage<Batches>(page, '/api/batch')).items.map((batch) => batch.name)).toEqual([
          'summer-shoot',
        ]);
        await expect.poll(() => page.getByTestId('batch-status').textContent(), { timeout: 30_000 }).toBe('completed');

        // Renamed in place on the Batches page, and kept.
        await page.getByRole('link', { name: 'Batches' }).click();
        const batches = page.getByRole('list', { name: 'Your batches' });
        await batches.getByText('summer-shoot').waitFor();
        await page.getByRole('button', { name: 'Rename batch summer-shoot' }).click();
        await page.getByLabel('Batch name').fill('Beach day');
        await page.getByRole('button', { name: 'Save' }).click();
        await batches.getByText('Beach day').waitFor();
        expect((await readAsPage<Batches>(page, '/api/batch')).items.map((batch) => batch.name)).toEqual(['Beach day']);
        await page.reload();
        await batches.getByText('Beach day').waitFor();
        // Cancel leaves the name as it was.
        await page.getByRole('button', { name: 'Rename batch Beach day' }).click();
        await page.getByLabel('Batch name').fill('Something else');
        await page.getByRole('button', { name: 'Cancel', exact: true }).click();
        await batches.getByText('Beach day').waitFor();
        expect((await readAsPage<Batches>(page, '/api/batch')).items.map((batch) => batch.name)).toEqual(['Beach day']);

        // Deleting asks first, naming the batch and what goes; "Keep it" keeps it.
        await page.getByRole('button', { name: 'Delete Beach day' }).click();
        const dialog = page.getByRole('dialog', { name: 'Delete “Beach day”?' });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain(
          'Its 2 images, their names and their previews are removed for good.',
        );
        expect(await dialogState(dialog)).toMatchObject({
          modal: true,
          atCentre: true,
          inView: true,
          focusInside: true,
        });
        expect(await seriousViolations(page)).toEqual([]);
        // The way out has the focus: a habitual Enter keeps the batch, and the focus goes back to its Delete.
        expect(await hasFocus(dialog.getByRole('button', { name: 'Keep it' }))).toBe(true);
        await page.keyboard.press('Enter');
        await dialog.waitFor({ state: 'detached' });
        expect(await hasFocus(page.getByRole('button', { name: 'Delete Beach day' }))).toBe(true);
        expect((await readAsPage<Batches>(page, '/api/batch')).items).toHaveLength(1);
        // "Keep it" keeps it too.
        await page.getByRole('button', { name: 'Delete Beach day' }).click();
        await dialog.getByRole('button', { name: 'Keep it' }).click();
        await dialog.waitFor({ state: 'detached' });
        expect((await readAsPage<Batches>(page, '/api/batch')).items).toHaveLength(1);

        await page.getByRole('button', { name: 'Delete Beach day' }).click();
        await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
        await page.getByText('No batch yet: upload some photos.').waitFor();
        expect(await page.locator('p.empty').count()).toBe(1);
        expect((await readAsPage<Batches>(page, '/api/batch')).items).toEqual([]);
        expect(errors).toEqual([]);
        await done();
      }, 90_000);
    }
  });
}
