import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/browser';
import { dialogState, hasFocus, OPERATOR, signIn, VIEWPORTS, type WebApp, watchedPage } from '../support/web-app';

/** The relative luminance (WCAG) of a computed colour such as `rgb(18, 20, 23)`. */
function luminance(colour: string) {
  const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number).map((value) => {
    const channel = value / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The page's own background, as the body paints it. */
const bodyBackground = (page: Page) =>
  page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as {
      document: { body: unknown };
      getComputedStyle(element: unknown): { backgroundColor: string };
    };
    return getComputedStyle(document.body).backgroundColor;
  });

/**
 * Every pair of visible buttons (and links drawn as buttons) on the same line, with the horizontal space between
 * them: negative when they overlap.
 */
const buttonGaps = (page: Page) =>
  page.evaluate(() => {
    interface Box {
      left: number;
      right: number;
      top: number;
      bottom: number;
      width: number;
      height: number;
    }
    interface Element {
      textContent: string | null;
      getBoundingClientRect(): Box;
      checkVisibility(): boolean;
    }
    const { document } = globalThis as unknown as { document: { querySelectorAll(selector: string): Element[] } };
    const buttons = [...document.querySelectorAll('button, a.button')]
      .filter((element) => element.checkVisibility())
      .map((element) => ({ name: element.textContent?.trim() ?? '', box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0);
    const pairs: { between: string; gap: number }[] = [];
    for (const [index, a] of buttons.entries()) {
      for (const b of buttons.slice(index + 1)) {
        const sameLine = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top) > 0;
        if (!sameLine) continue;
        const gap = Math.max(a.box.left, b.box.left) - Math.min(a.box.right, b.box.right);
        pairs.push({ between: `${a.name} | ${b.name}`, gap: Math.round(gap * 10) / 10 });
      }
    }
    return pairs;
  });

/** Registered by e2e/web.test.ts, on its stack and browser. */
export function accountCases(app: WebApp) {
  describe('one visual system (issue 28: buttons, dark mode, empty states, keys, plans)', () => {
    it('asks before revoking an API key, naming it, in a modal dialog: "Keep it" keeps the key working, "Revoke" ends it at once and takes its secret off the page', async () => {
      const { page, errors } = await watchedPage(app);
      await signIn(app, page, 'visual-keys@renamer.test', 'Keys');
      for (const [width, size] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(size);
        await page.goto(`${app.stack.apiUrl}/account`);
        const keys = page.getByRole('list', { name: 'Your API keys' });
        const empty = page.getByText('No API key yet', { exact: false });
        await empty.waitFor();
        await page.getByLabel('Name of a new key').fill('laptop script');
        await page.getByRole('button', { name: 'Create key' }).click();
        const secret = await page.getByTestId('new-api-key').textContent();
        expect(secret, width).toMatch(/^rn_/);
        const asScript = () =>
          fetch(`${app.stack.apiUrl}/api/auth/me`, { headers: { authorization: `Bearer ${secret}` } });
        expect((await asScript()).status, width).toBe(200);

        const dialog = page.getByRole('dialog', { name: 'Revoke “laptop script”?' });
        await page.getByRole('button', { name: 'Revoke laptop script' }).click();
        await dialog.waitFor();
        expect(await dialogState(dialog), width).toMatchObject({ modal: true, atCentre: true, inView: true });
        expect(await dialog.textContent(), width).toContain('Scripts using it stop working at once.');
        expect(await seriousViolations(page), width).toEqual([]);
        expect(await hasFocus(dialog.getByRole('button', { name: 'Keep it' })), width).toBe(true);
        await dialog.getByRole('button', { name: 'Keep it' }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(await hasFocus(page.getByRole('button', { name: 'Revoke laptop script' })), width).toBe(true);
        expect((await asScript()).status, width).toBe(200);
        expect(await page.getByTestId('new-api-key').count(), width).toBe(1);
        expect(await keys.getByText('laptop script').count(), width).toBe(1);

        await page.getByRole('button', { name: 'Revoke laptop script' }).click();
        await dialog.waitFor();
        await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
        await dialog.waitFor({ state: 'hidden' });
        await expect.poll(() => page.getByTestId('new-api-key').count()).toBe(0);
        await expect.poll(() => keys.getByText('laptop script').count()).toBe(0);
        expect((await asScript()).status, width).toBe(401);
        await empty.waitFor();
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it('shows Basic, Pro and Max with the images each gives a month on a server without Stripe, the current plan marked, with the notice and nothing to buy', async () => {
      const { page, errors } = await watchedPage(app);
      await signIn(app, page, 'visual-plans@renamer.test', 'Plans');
      for (const [width, size] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(size);
        await page.goto(`${app.stack.apiUrl}/plans`);
        await page.getByText('Payments are not set up on this server').waitFor();
        const cards = page.getByRole('list', { name: 'Plans' }).getByRole('listitem');
        await expect.poll(() => page.locator('[aria-current="true"]').count()).toBe(1);
        expect(await cards.allTextContents(), width).toEqual([
          'Basic50 images a monthYour plan',
          'Pro500 images a month',
          'Max1000 images a month',
        ]);
        expect(await cards.first().getAttribute('aria-current'), width).toBe('true');
        expect(await page.getByRole('button').count(), width).toBe(0);
        // Every card in view side by side on a desktop, one under another on a phone; none wider than the page.
        const boxes = await Promise.all([0, 1, 2].map(async (index) => (await cards.nth(index).boundingBox())!));
        for (const box of boxes) expect(box.x + box.width, width).toBeLessThanOrEqual(size.width);
        if (width === 'desktop') expect(new Set(boxes.map((box) => Math.round(box.y))).size).toBe(1);
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it('never lets two buttons touch on Account and Plans, at a desktop’s and a phone’s width', async () => {
      const { page, errors } = await watchedPage(app);
      await signIn(app, page, 'visual-buttons@renamer.test', 'Buttons');
      // This server has no Stripe: a subscription is answered here so that Plans shows every button it can.
      await page.route('**/api/payments/subscription', (route) =>
        route.fulfill({
          json: {
            plan: 'basic',
            status: 'active',
            currentPeriodEnd: '2099-01-01T00:00:00.000Z',
            cancelAtPeriodEnd: false,
          },
        }),
      );
      await page.route('**/api/payments/history', (route) => route.fulfill({ json: { items: [] } }));
      for (const [width, size] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(size);
        await page.goto(`${app.stack.apiUrl}/account`);
        await page.getByLabel('Name of a new key').fill(`script on a ${width}`);
        await page.getByRole('button', { name: 'Create key' }).click();
        await page.getByTestId('new-api-key').waitFor();
        await page.getByRole('button', { name: `Revoke script on a ${width}` }).waitFor();
        await page.getByRole('button', { name: 'Delete the account…' }).click();
        await page.getByRole('button', { name: 'Keep my account' }).waitFor();
        const onAccount = await buttonGaps(page);
        // On a desktop the deletion's two choices sit side by side (on a phone they may wrap, each on its line).
        if (width === 'desktop') {
          expect(onAccount.map((pair) => pair.between)).toContain('Delete everything | Keep my account');
        }
        for (const pair of onAccount) expect(pair.gap, `${width}: ${pair.between}`).toBeGreaterThanOrEqual(4);

        await page.goto(`${app.stack.apiUrl}/plans`);
        await page.getByRole('button', { name: 'Switch to Max' }).waitFor();
        const onPlans = await buttonGaps(page);
        if (width === 'desktop') {
          expect(onPlans.map((pair) => pair.between)).toContain("Manage billing | Cancel at the period's end");
        }
        for (const pair of onPlans) expect(pair.gap, `${width}: ${pair.between}`).toBeGreaterThanOrEqual(4);
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it('follows the system’s dark mode, axe clean in light and dark on Account, Plans, Batches, Upload and the admin dashboard, whose audit log renders', async () => {
      const { page, errors } = await watchedPage(app);
      await page.setViewportSize(VIEWPORTS.desktop);
      const pages: [path: string, heading: string][] = [
        ['/account', 'API keys'],
        ['/plans', 'Plans'],
        ['/batches', 'Batches'],
        ['/', 'Upload photos'],
      ];
      const check = async (path: string, heading: string) => {
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          await page.goto(`${app.stack.apiUrl}${path}`);
          await page.getByRole('heading', { name: heading, exact: true }).waitFor();
          const background = luminance(await bodyBackground(page));
          if (colorScheme === 'dark') expect(background, `${path} in dark mode`).toBeLessThan(0.2);
          else expect(background, `${path} in light mode`).toBeGreaterThan(0.8);
          expect(await seriousViolations(page), `${path} in ${colorScheme} mode`).toEqual([]);
        }
      };
      await signIn(app, page, 'visual-desk@renamer.test', 'Desk');
      for (const [path, heading] of pages) await check(path, heading);

      await signIn(app, page, OPERATOR, 'Operator');
      await check('/admin', 'Analytics');
      await check('/admin/audit-log', 'Audit log');
      // Other cases on this stack write to the audit log: here only that it renders, entries or the empty state
      // (which the component test shows).
      await expect
        .poll(
          async () =>
            (await page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem').count()) +
            (await page.locator('p.empty').count()),
        )
        .toBeGreaterThan(0);
      await page.emulateMedia({ colorScheme: 'light' });
      expect(errors).toEqual([]);
      await page.close();
    });
  });
}
