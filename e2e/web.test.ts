import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { photo } from '@renamer/api/testing';
import { testDir } from '@renamer/runtime/testing';
import { describe, expect, it } from 'vitest';
import { readAsPage, screenshot, seriousViolations } from './support/browser';
import {
  archiveListing,
  batchStatusUrl,
  dialogState,
  hasFocus,
  type InPage,
  launchBrowser,
  OPERATOR,
  signIn,
  useWebApp,
} from './support/web-app';
import { accountCases } from './web/account';
import { reviewCases } from './web/review';
import { uploadCases } from './web/upload';

/** The web app in a real browser (the Chromium of @sparticuz/chromium), served by the API from its own origin. */

const app = useWebApp();

describe('the web app', () => {
  it('signs a person in through the provider, shows their plan, and makes, shows once and revokes an API key', async () => {
    const page = await app.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${app.stack.apiUrl}/`);
    await screenshot(page, 'sign-in');
    await signIn(app, page, 'ada@renamer.test', 'Ada');
    await page.getByRole('link', { name: 'Account' }).click();
    await expect.poll(() => page.getByLabel('Display name').inputValue()).toBe('Ada');
    await expect.poll(() => page.getByText(/Basic: 0 of 50 images used this month/).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Name of a new key').fill('laptop script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-api-key').textContent();
    expect(key).toMatch(/^rn_/);
    await screenshot(page, 'account');
    const asScript = () => fetch(`${app.stack.apiUrl}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(await (await asScript()).json()).toMatchObject({ displayName: 'Ada' });
    await expect
      .poll(() => page.getByRole('list', { name: 'Your API keys' }).getByText('laptop script').count())
      .toBe(1);

    await page.getByRole('button', { name: 'Revoke laptop script' }).click();
    await page.getByRole('dialog', { name: 'Revoke “laptop script”?' }).getByRole('button', { name: 'Revoke' }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Your API keys' }).getByText('laptop script').count())
      .toBe(0);
    expect((await asScript()).status).toBe(401);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs under the API’s own Content-Security-Policy and fits a phone’s width without horizontal scrolling', async () => {
    const page = await app.context.newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) refused.push(message.text());
    });
    await page.goto(`${app.stack.apiUrl}/account`);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(refused).toEqual([]);
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
            .scrollWidth,
      ),
    ).toBeLessThanOrEqual(375);
    await page.close();
  });

  it('uploads photos picked in the page, counts them in the quota, skips those already uploaded, and shows the batch finish live', async () => {
    const page = await app.context.newPage();
    await page.goto(`${app.stack.apiUrl}/`);
    const files = await Promise.all(
      [301, 302].map(async (seed) => ({
        name: `IMG_${seed}.JPG`,
        mimeType: 'image/jpeg',
        buffer: await photo('jpeg', seed),
      })),
    );
    await page.getByLabel('Photos', { exact: true }).setInputFiles(files);
    await page.getByLabel('Keywords (comma-separated, they lead the names)').fill('red shoes');
    await page.getByRole('button', { name: 'Upload 2 photos' }).click();
    await page.getByText('2 uploaded, 0 already in your account, 0 refused.').waitFor();
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByText('Basic: 2 of 50 images used this month', { exact: false }).waitFor();

    await page.getByRole('link', { name: 'Batches' }).click();
    await expect
      .poll(() => page.getByTestId('batch-status').first().textContent(), { timeout: 20_000 })
      .toBe('completed');
    expect(await page.getByRole('list', { name: 'Your batches' }).getByRole('listitem').count()).toBe(1);
    await screenshot(page, 'batches');
    const [archive] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download ZIP' }).click(),
    ]);
    const listing = await archiveListing(archive, 'batch.zip');
    expect(listing).toHaveLength(2);
    expect(listing.every((name) => /^red-shoes.*\.jpg$/.test(name))).toBe(true);

    // Review at the keyboard: rename the first image, approve it, undo that, then approve them all.
    await page.getByRole('button', { name: 'Review' }).click();
    const list = page.getByRole('listbox', { name: 'Images of the batch' });
    const first = list.getByRole('option').first();
    await first.waitFor();
    await list.focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('New name').fill('Blue Leather Boots!');
    await page.getByText('→ blue-leather-boots.jpg').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => first.getByTestId('filename').textContent()).toBe('blue-leather-boots.jpg');
    await page.keyboard.press('a');
    await expect.poll(() => first.getByTestId('image-status').textContent()).toBe('approved');
    await page.keyboard.press('u');
    await expect.poll(() => first.getByTestId('image-status').textContent()).toBe('ready');
    await page.keyboard.press('Shift+A');
    await page
      .getByRole('dialog', { name: 'Approve every image to review?' })
      .getByRole('button', { name: 'Approve 2 images' })
      .click();
    await expect
      .poll(async () => (await list.getByTestId('image-status').allTextContents()).join(','))
      .toBe('approved,approved');

    // Keywords: one typed (validated by the server), one the enhancement proposes, one removed.
    const batchKeywords = page.getByRole('list', { name: 'Keywords of the batch' });
    await expect.poll(() => batchKeywords.getByRole('listitem').allTextContents()).toEqual(['red shoes×']);
    await page.getByLabel('Add a keyword').fill('Leather Boots');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => batchKeywords.getByRole('listitem').count()).toBe(2);
    await page.getByRole('button', { name: 'Enhance the keywords' }).click();
    const proposed = page.getByRole('list', { name: 'Proposed keywords' }).getByRole('button').first();
    await proposed.waitFor();
    await proposed.click();
    await expect.poll(() => batchKeywords.getByRole('listitem').count()).toBe(3);
    await page.getByRole('button', { name: 'Remove red shoes' }).click();
    await expect.poll(() => batchKeywords.getByRole('listitem').count()).toBe(2);
    const status = (await page.evaluate(async (batchUrl) => (await fetch(batchUrl)).json(), batchStatusUrl(page))) as {
      keywords: string[];
    };
    expect(status.keywords).toHaveLength(2);
    expect(status.keywords).not.toContain('red shoes');

    await list.focus();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Batches' }).waitFor();

    // The same photos again: hashed in the page, found in the account, asked about once, skipped: not sent.
    await page.getByRole('link', { name: 'Upload' }).click();
    await page.getByLabel('Photos', { exact: true }).setInputFiles(files);
    await page.getByRole('button', { name: 'Upload 2 photos' }).click();
    await page
      .getByRole('dialog', { name: 'Photos already in your account' })
      .getByRole('button', { name: 'Skip them' })
      .click();
    await page.getByText('0 uploaded, 2 already in your account, 0 refused.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  }, 90_000);

  it('uploads a picked folder and follows the batch on the same page: names as they come, Approve all, and a ZIP whose contents are listed beside its options', async () => {
    const page = await app.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const folder = join(testDir('web-folder'), 'summer-shoot');
    mkdirSync(folder, { recursive: true });
    for (const seed of [311, 312, 313]) writeFileSync(join(folder, `IMG_${seed}.JPG`), await photo('jpeg', seed));
    writeFileSync(join(folder, '.DS_Store'), 'not a photo');

    await page.goto(`${app.stack.apiUrl}/`);
    await page.getByLabel('A folder').setInputFiles(folder);
    await page.getByLabel('Keywords (comma-separated, they lead the names)').fill('linen dress');
    // The hidden file is left out.
    await page.getByRole('button', { name: 'Upload 3 photos' }).click();
    await page.getByText('3 uploaded, 0 already in your account, 0 refused.').waitFor();

    await expect.poll(() => page.getByTestId('batch-status').textContent(), { timeout: 30_000 }).toBe('completed');
    const names = page.getByTestId('proposed-name');
    await expect
      .poll(async () => (await names.allTextContents()).filter((name) => /^linen-dress.*\.jpg$/.test(name)).length)
      .toBe(3);

    const contents = page.getByRole('list', { name: 'Contents of the archive' });
    await expect.poll(() => contents.getByRole('listitem').count()).toBe(3);
    await page.getByLabel('Approved images only').check();
    await expect.poll(() => contents.getByRole('listitem').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Download ZIP' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Approve all' }).click();
    await expect.poll(() => contents.getByRole('listitem').count()).toBe(3);

    await page.getByLabel('Add the rename kit (manifest and redirect maps)').check();
    await page.getByLabel(/Where the images are online today/).fill('https://shop.example/img/');
    await expect.poll(() => contents.getByRole('listitem').count()).toBe(6);
    const listed = (await names.allTextContents()).sort();
    await screenshot(page, 'upload');
    const [archive] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download ZIP' }).click(),
    ]);
    const listing = await archiveListing(archive, 'folder.zip');
    expect(listing.filter((name) => name.endsWith('.jpg')).sort()).toEqual(listed);
    expect(listing).toEqual(
      expect.arrayContaining([
        'renamer/manifest.csv',
        'renamer/.htaccess',
        'renamer/redirects.csv',
        'renamer/image-sitemap.xml',
      ]),
    );
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);

    // The review page: revert to the uploaded name and back to the proposal, each change in the name history.
    await page.getByRole('button', { name: 'Review' }).click();
    const list = page.getByRole('listbox', { name: 'Images of the batch' });
    const first = list.getByRole('option').first();
    await first.waitFor();
    const proposal = await first.getByTestId('filename').textContent();
    await page.getByRole('button', { name: 'Unapprove' }).click();
    await expect.poll(() => first.getByTestId('image-status').textContent()).toBe('ready');
    await page.getByRole('button', { name: 'Revert to the uploaded name' }).click();
    await expect.poll(() => first.getByTestId('filename').textContent()).toMatch(/^img-31[123]\.jpg$/);
    const history = page.getByRole('list', { name: 'Name history' });
    await expect.poll(() => history.getByRole('listitem').first().textContent()).toMatch(/→ img-31[123]\.jpgreverted/);
    const changes = await history.getByRole('listitem').count();
    await page.getByRole('button', { name: 'Revert to the proposal' }).click();
    await expect.poll(() => first.getByTestId('filename').textContent()).toBe(proposal);
    await expect.poll(() => history.getByRole('listitem').count()).toBe(changes + 1);
    expect(await history.getByRole('listitem').first().textContent()).toMatch(/reverted/);
    await screenshot(page, 'review');
    expect(await seriousViolations(page)).toEqual([]);

    // The shortcuts: a modal dialog drawn above the list and the detail, at a desktop's and a phone's size, closed
    // by its button or by Esc wherever focus is, focus going back to what opened it.
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const shortcutsButton = page.getByRole('button', { name: 'Keyboard shortcuts' });
    expect(await shortcutsButton.textContent()).toBe('Keyboard shortcuts ?');
    expect(await page.getByRole('button', { name: 'Approve and next' }).getAttribute('aria-keyshortcuts')).toBe('a');
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await list.focus();
      await page.keyboard.press('?');
      await dialog.waitFor();
      expect(await dialogState(dialog)).toEqual({
        modal: true,
        atCentre: true,
        inView: true,
        focusInside: true,
        focused: 'BUTTON',
      });
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await hasFocus(list)).toBe(true);

      // Opened again, by `?` on a desktop and by a tap on its button on a phone. A click on the page behind it
      // takes the focus off its button (Chromium gives it to the dialog itself), and a blur leaves it on the body:
      // Esc still closes it, no key handler of the list involved (and the review page stays).
      const opener = size.width > 1000 ? list : shortcutsButton;
      if (opener === list) await page.keyboard.press('?');
      else await shortcutsButton.click();
      await dialog.waitFor();
      await page.mouse.click(5, size.height - 5);
      expect((await dialogState(dialog)).focused).toBe('DIALOG');
      await dialog.evaluate((element: InPage) => element.blur());
      expect((await dialogState(dialog)).focused).toBe('BODY');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await hasFocus(opener)).toBe(true);
      expect(await page.getByRole('heading', { name: 'Review the names' }).count()).toBe(1);
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('says plainly that payments are not set up on a server without Stripe, and keeps the plan and quota in view', async () => {
    const page = await app.context.newPage();
    await page.goto(`${app.stack.apiUrl}/plans`);
    await page.getByText('Payments are not set up on this server').waitFor();
    await expect.poll(() => page.getByText(/^Basic: \d+ of 50 images used this month\.$/).count()).toBe(1);
    expect(await page.getByRole('button', { name: /Upgrade/ }).count()).toBe(0);
    await screenshot(page, 'plans');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('keeps the admin dashboard for admins: a person is told it is not for them; an operator whose browser reports the language en-US@posix sees every page and the chart, analytics, changes a plan, bans (and the person’s open page is signed out at once), flips a flag, pauses a queue and finds it all in the audit log', async () => {
    const adasPage = await app.context.newPage();
    await adasPage.goto(`${app.stack.apiUrl}/admin`);
    await adasPage.getByText("This page is for the service's operators").waitFor();
    expect(await adasPage.getByRole('link', { name: 'Admin' }).count()).toBe(0);

    // The operator in a browser of their own: this Chromium keeps one cookie store for all its contexts. It reports
    // the language a POSIX-locale desktop or a headless browser does, `en-US@posix`, which Intl refuses: the app
    // formats with a tag Intl takes instead (apps/web/src/ui/locale.ts), the dashboard's chart library included.
    const operatorsBrowser = await launchBrowser();
    const page = await (await operatorsBrowser.newContext({ locale: 'en-US@posix' })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(app, page, OPERATOR, 'Operator');
    const reported = await page.evaluate(() => {
      const { navigator } = globalThis as unknown as { navigator: object };
      // The browser's own getter: the app shadows navigator.language with a tag Intl takes.
      return Reflect.get(Object.getPrototypeOf(navigator), 'language', navigator) as string;
    });
    expect(reported).toBe('en-US@posix');
    for (const [link, heading] of [
      ['Batches', 'Batches'],
      ['Plans', 'Your plan'],
      ['Account', 'API keys'],
      ['Upload', 'Upload photos'],
    ]) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    }
    await page.getByRole('link', { name: 'Admin' }).click();

    // Analytics: the two people who signed up, the images, and the daily chart.
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    await page.getByText('2 (2 new)').waitFor();
    await page.getByText(/^5 uploaded, 5 named, 0 failed$/).waitFor();
    // No vision model here: every image was named by the local analyser.
    await page.getByText(/^0 calls, 0 failed \(0 timed out\), 5 named locally; tokens 0 in, 0 out$/).waitFor();
    expect(
      await page
        .getByRole('img', { name: /per day/ })
        .locator('canvas')
        .count(),
    ).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'admin-analytics');
    // The chart follows its box: no horizontal scrolling on a phone.
    await page.setViewportSize({ width: 375, height: 740 });
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
              .documentElement.scrollWidth,
        ),
      )
      .toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Users: find Ada by her email, give her Pro, then ban her.
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Find a user (id, email or name)').fill('ada@renamer.test');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Open Ada' }).click();
    await page.getByLabel('Plan', { exact: true }).selectOption('pro');
    await page.getByRole('button', { name: 'Save plan and quota' }).click();
    await expect.poll(() => page.getByText(/of 500 images used this month/).count()).toBe(1);
    await page.getByLabel('Reason for a ban').fill('chargeback fraud');
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    await page.getByText(/Banned .*: chargeback fraud/).waitFor();
    // Ada's open page is signed out at once (the API closes her socket), and says why.
    await adasPage.getByRole('link', { name: 'Sign in' }).waitFor({ timeout: 5_000 });
    expect(await adasPage.getByRole('alert').textContent()).toMatch(/banned|suspended/i);
    await screenshot(page, 'admin-users');
    const [ada] = (
      await readAsPage<{ items: { id: string; plan: string; bannedAt: string | null }[] }>(
        page,
        '/api/admin/users?q=ada@renamer.test',
      )
    ).items;
    expect(ada).toMatchObject({ plan: 'pro', bannedAt: expect.any(String) });

    // Feature flags: uploads off, read back, and on again.
    await page.getByRole('link', { name: 'Feature flags' }).click();
    const uploads = page.getByRole('switch', { name: 'uploads-enabled' });
    // The switch shows the server's state, so it changes once the change is saved.
    await uploads.click();
    const flags = () => readAsPage<{ items: { key: string; enabled: boolean }[] }>(page, '/api/admin/feature-flags');
    await expect
      .poll(async () => (await flags()).items.find((flag) => flag.key === 'uploads-enabled')?.enabled)
      .toBe(false);
    await expect.poll(() => uploads.isChecked()).toBe(false);
    await uploads.click();
    await expect
      .poll(async () => (await flags()).items.find((flag) => flag.key === 'uploads-enabled')?.enabled)
      .toBe(true);

    // Health and queues: every dependency up, a queue paused and resumed.
    await page.getByRole('link', { name: 'Health and queues' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Dependencies' }).getByText(/^up, /).count()).toBe(3);
    await page.getByRole('button', { name: 'Pause images' }).click();
    await page.getByRole('heading', { name: 'Queue images (paused)' }).waitFor();
    await page.getByRole('button', { name: 'Resume images' }).click();
    await page.getByRole('button', { name: 'Pause images' }).waitFor();
    await screenshot(page, 'admin-queues');

    // Cleanup: a dry run counts without removing.
    await page.getByRole('link', { name: 'Cleanup' }).click();
    await page.getByRole('button', { name: 'Dry run expired-downloads' }).click();
    await page.getByText(/would remove \d+/).waitFor();

    // Every change above, in the audit log.
    await page.getByRole('link', { name: 'Audit log' }).click();
    const audit = page.getByRole('list', { name: 'Audit entries' });
    for (const action of ['user.update', 'user.ban', 'feature_flag.update', 'queue.pause', 'queue.resume']) {
      await expect.poll(() => audit.getByText(action, { exact: true }).count()).toBeGreaterThan(0);
    }
    await page.getByRole('link', { name: 'Logs' }).click();
    await page.getByRole('heading', { name: 'Logs' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.getByText('This page could not be shown').count()).toBe(0);
    await operatorsBrowser.close();
  }, 90_000);
});

reviewCases(app);
uploadCases(app);
accountCases(app);
