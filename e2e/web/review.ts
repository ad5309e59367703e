import { photo } from '@renamer/api/testing';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readAsPage, screenshot, seriousViolations } from '../support/browser';
import { hasFocus, type InPage, inViewport, signIn, VIEWPORTS, type WebApp, watchedPage } from '../support/web-app';

/** Photos large enough that the large preview is wider than the panel's 480 px. */
const PHOTOS = 14;

interface ImageRow {
  id: string;
  status: string;
  filename: string | null;
}

/** A page of the window's own reading: `scrollY`, or an element's box. */
interface Win {
  scrollY: number;
}

/** Polled gently: the API's rate limit counts these reads too. */
const GENTLY = { timeout: 20_000, interval: 500 };

const statuses = async (page: Page, batchId: string) =>
  (await readAsPage<{ items: ImageRow[] }>(page, `/api/image/batch/${batchId}?limit=100`)).items.map(
    (image) => image.status,
  );

/** The image of that test id once loaded: its pixel width and the address it came from. */
const loadedImage = (page: Page, testId = 'large-preview') =>
  page.getByTestId(testId).evaluate(
    (element: InPage & { naturalWidth: number; complete: boolean; currentSrc: string }) =>
      new Promise<{ naturalWidth: number; src: string }>((resolve, reject) => {
        const done = () => resolve({ naturalWidth: element.naturalWidth, src: element.currentSrc });
        if (element.complete && element.naturalWidth > 0) return done();
        const events = element as unknown as { addEventListener(type: string, run: () => void): void };
        events.addEventListener('load', done);
        events.addEventListener('error', () => reject(new Error(`the image ${element.currentSrc} failed`)));
      }),
  );

/** How many of the locator's elements lie wholly inside the viewport. */
async function countInView(items: Locator) {
  let shown = 0;
  for (const item of await items.all()) if (await inViewport(item)) shown++;
  return shown;
}

/** Lines of the list drawn over the next one (what rows too tall for a fixed height were on a phone). */
const overlappingRows = (list: Locator) =>
  list.locator('.review-line').evaluateAll((lines: InPage[]) => {
    const boxes = lines.map((line) => line.getBoundingClientRect()).sort((a, b) => a.top - b.top);
    return boxes.filter((box, index) => index > 0 && boxes[index - 1]!.bottom > box.top + 1).length;
  });

/** Registered by e2e/web.test.ts, on its stack and browser. */
export function reviewCases(app: WebApp) {
  describe('the review page (issue 28: the photo first, rename by touch, undo, select and filter, grid, phones)', () => {
    let batchId: string;
    let reviewUrl: string;

    async function openReview(size: { width: number; height: number }) {
      const { page, errors } = await watchedPage(app);
      await page.setViewportSize(size);
      await page.goto(reviewUrl);
      const list = page.getByRole('listbox', { name: 'Images of the batch' });
      await list.getByRole('option').first().waitFor();
      return { page, errors, list };
    }

    it('arrives ready: after Review the page is at its top, the list has the focus and j moves; the photo is large, j swaps it at once, a click zooms into the original', async () => {
      const { page, errors } = await watchedPage(app);
      await page.setViewportSize(VIEWPORTS.desktop);
      await signIn(app, page, 'reviewer@renamer.test', 'Reviewer');
      const files = await Promise.all(
        Array.from({ length: PHOTOS }, async (_, index) => ({
          name: `IMG_${4100 + index}.JPG`,
          mimeType: 'image/jpeg',
          buffer: await photo('jpeg', 4100 + index, 1200, 800),
        })),
      );
      await page.getByLabel('Photos', { exact: true }).setInputFiles(files);
      await page.getByRole('button', { name: `Upload ${PHOTOS} photos` }).click();
      await expect
        .poll(
          async () => (await readAsPage<{ items: { batchId: string; status: string }[] }>(page, '/api/batch')).items,
          {
            timeout: 60_000,
          },
        )
        .toEqual([expect.objectContaining({ status: 'completed' })]);
      batchId = (await readAsPage<{ items: { batchId: string }[] }>(page, '/api/batch')).items[0]!.batchId;
      reviewUrl = `${app.stack.apiUrl}/batches/${batchId}`;

      // Arrive at the batches page scrolled down (a short window, so that it scrolls), then open the review.
      await page.getByRole('link', { name: 'Batches' }).click();
      await page.setViewportSize({ width: VIEWPORTS.desktop.width, height: 240 });
      await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 150));
      expect(await page.evaluate(() => (globalThis as unknown as Win).scrollY)).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Review' }).first().click();
      await page.waitForURL(reviewUrl);
      const list = page.getByRole('listbox', { name: 'Images of the batch' });
      await list.getByRole('option').first().waitFor();
      expect(await page.evaluate(() => (globalThis as unknown as Win).scrollY)).toBe(0);
      await page.setViewportSize(VIEWPORTS.desktop);
      await expect.poll(() => hasFocus(list)).toBe(true);

      const preview = page.getByTestId('large-preview');
      const first = await loadedImage(page);
      expect(first.naturalWidth).toBeGreaterThanOrEqual(480);
      expect((await preview.boundingBox())!.width).toBeGreaterThanOrEqual(480);
      expect(await inViewport(preview)).toBe(true);
      expect(await page.getByTestId('name-change').textContent()).toMatch(/^IMG_\d+\.JPG → .+\.jpg$/);
      await page.keyboard.press('j');
      await expect.poll(() => list.getByRole('option').nth(1).getAttribute('data-current')).toBe('true');
      // The selected image's own photo (the panel follows the list a moment later).
      const secondId = (await list.getByRole('option').nth(1).getAttribute('id'))!.replace(/^image-/, '');
      await expect.poll(() => preview.getAttribute('src')).toBe(`/api/image/${secondId}/preview?size=large`);
      const second = await loadedImage(page);
      expect(second.src).not.toBe(first.src);
      expect(second.naturalWidth).toBeGreaterThanOrEqual(480);

      await preview.click();
      const zoomed = page.getByRole('dialog', { name: /, zoomed$/ });
      await zoomed.waitFor();
      expect(await zoomed.evaluate((element: InPage) => element.matches(':modal'))).toBe(true);
      // The zoom is the original itself (1200 px wide), fitted to a smaller window, then at its actual size.
      const full = zoomed.getByTestId('full-image');
      expect(await full.getAttribute('src')).toBe(`/api/image/${secondId}/preview?size=full`);
      expect((await loadedImage(page, 'full-image')).naturalWidth).toBe(1200);
      await page.setViewportSize({ width: 800, height: 600 });
      await expect.poll(async () => (await full.boundingBox())!.width).toBeLessThan(800);
      const actualSize = zoomed.getByRole('button', { name: 'Actual size' });
      await actualSize.click();
      await expect.poll(async () => (await full.boundingBox())!.width).toBe(1200);
      expect(await actualSize.getAttribute('aria-pressed')).toBe('true');
      await page.keyboard.press('Escape');
      await zoomed.waitFor({ state: 'hidden' });
      await page.setViewportSize(VIEWPORTS.desktop);
      await screenshot(page, 'review');
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    it('renames by tap on a phone with Enter pressed at once, shows rows sized to what they hold, and opens the detail as a panel from the bottom', {
      timeout: 90_000,
    }, async () => {
      // A phone's touch screen: a context of its own, left open (closing one ends this single-process Chromium).
      const phone = await app.browser.newContext({
        locale: 'en-US',
        hasTouch: true,
        isMobile: true,
        viewport: VIEWPORTS.phone,
      });
      const page = await phone.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(reviewUrl);
      const list = page.getByRole('listbox', { name: 'Images of the batch' });
      await list.getByRole('option').first().waitFor();
      expect(await overlappingRows(list)).toBe(0);
      // Followed by its id: a list read again sorts the renamed image by its new score.
      const firstId = await list.getByRole('option').first().getAttribute('id');
      const first = list.locator(`[id="${firstId}"]`);
      const before = await first.getByTestId('filename').textContent();
      await first.locator('.rename-button').tap();
      const sheet = page.getByRole('dialog').filter({ has: page.getByTestId('large-preview') });
      await sheet.waitFor();
      const box = (await sheet.boundingBox())!;
      expect(box.y + box.height).toBeGreaterThanOrEqual(VIEWPORTS.phone.height - 1);
      const field = page.getByLabel('New name');
      await field.fill('Tapped Linen Dress');
      // At once: no wait for the check the field asks for as it is typed.
      await field.press('Enter');
      await expect.poll(() => first.getByTestId('filename').textContent()).toBe('tapped-linen-dress.jpg');
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Renamed' }).count()).toBe(1);
      await page.getByRole('button', { name: 'Undo' }).tap();
      await expect.poll(() => first.getByTestId('filename').textContent()).toBe(before);
      await page.getByRole('button', { name: 'Close', exact: true }).tap();
      expect(await overlappingRows(list)).toBe(0);
      await screenshot(page, 'review-phone-panel');
      expect(errors).toEqual([]);
      await page.close();
    });

    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      it(`at ${size} size: selects a shift-click range of 5 and approves exactly those, shows approved badges and counts, and undoes it`, {
        timeout: 90_000,
      }, async () => {
        const { page, errors, list } = await openReview(viewport);
        const options = list.getByRole('option');
        await options.nth(2).locator('.choose').click();
        await options
          .nth(6)
          .locator('img')
          .click({ modifiers: ['Shift'] });
        await page.getByRole('button', { name: 'Approve selected (5)' }).click();
        const confirm = page.getByRole('dialog', { name: 'Approve the selected images?' });
        await confirm.getByRole('button', { name: 'Approve 5 selected' }).click();
        await expect
          .poll(async () => (await statuses(page, batchId)).filter((s) => s === 'approved').length, GENTLY)
          .toBe(5);
        await expect.poll(() => page.getByRole('button', { name: /^Approved/ }).textContent()).toBe('Approved 5');
        expect(await list.locator('.badge.approved').count()).toBe(5);
        await page.getByRole('button', { name: /^Approved/ }).click();
        await expect.poll(() => options.count()).toBe(5);
        await page.getByRole('button', { name: 'Undo' }).click();
        await expect.poll(async () => (await statuses(page, batchId)).every((s) => s === 'ready'), GENTLY).toBe(true);
        expect(errors).toEqual([]);
        await page.close();
      });

      it(`at ${size} size: approves everything with Shift+A after saying how many, and Undo leaves every image ready`, {
        timeout: 90_000,
      }, async () => {
        const { page, errors, list } = await openReview(viewport);
        await list.focus();
        await page.keyboard.press('Shift+A');
        const confirm = page.getByRole('dialog', { name: 'Approve every image to review?' });
        await confirm.getByRole('button', { name: `Approve ${PHOTOS} images` }).click();
        await expect
          .poll(async () => (await statuses(page, batchId)).every((s) => s === 'approved'), GENTLY)
          .toBe(true);
        await page.getByRole('button', { name: 'Undo' }).click();
        await expect.poll(async () => (await statuses(page, batchId)).every((s) => s === 'ready'), GENTLY).toBe(true);
        // The visible button asks the same question; Cancel sends nothing.
        const approvals: string[] = [];
        page.on('request', (request) => request.url().includes('/approve') && approvals.push(request.url()));
        await page.getByRole('button', { name: /^Approve all/ }).click();
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await confirm.waitFor({ state: 'hidden' });
        await page.waitForLoadState('networkidle');
        expect(approvals).toEqual([]);
        expect((await statuses(page, batchId)).every((s) => s === 'ready')).toBe(true);
        expect(errors).toEqual([]);
        await page.close();
      });

      it(`at ${size} size: shows a grid on g with its cards in view, keeps the choice, and goes back to the list on l; axe finds nothing in light or dark mode`, async () => {
        const { page, errors, list } = await openReview(viewport);
        await list.focus();
        await page.keyboard.press('g');
        const cards = list.locator('.review-card');
        await cards.first().waitFor();
        // On a phone the list sits under the page's controls: in view once scrolled to, as a thumb does.
        if (size === 'phone')
          await list.evaluate((element: InPage & { scrollIntoView(): void }) => element.scrollIntoView());
        // Once measured: the cards take their size a frame after the grid is drawn.
        await expect.poll(() => countInView(cards)).toBeGreaterThanOrEqual(size === 'desktop' ? 12 : 4);
        await page.reload();
        await list.locator('.review-card').first().waitFor();
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          expect(await seriousViolations(page)).toEqual([]);
        }
        await page.emulateMedia({ colorScheme: 'light' });
        await list.focus();
        await page.keyboard.press('l');
        await list.locator('.review-row').first().waitFor();
        expect(await cards.count()).toBe(0);
        expect(errors).toEqual([]);
        await page.close();
      }, 90_000);
    }
  });
}
