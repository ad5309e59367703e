import { fileURLToPath } from 'node:url';
import { type AuthStack, photo, startAuthStack } from '@renamer/api/testing';
import { freePort, type SpawnedService, spawnService, waitForStatus } from '@renamer/runtime/testing';
import chromium from '@sparticuz/chromium';
import { type Browser, chromium as playwright } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebIfChanged } from '../scripts/stack/web-build';
import { readAsPage, screenshot, seriousViolations } from './support/browser';

/**
 * Naming templates, instructions and "Name again" in the web app (issue 26, item 10), in a real Chromium against the
 * real API, worker, PostgreSQL and Redis, as e2e/web.test.ts runs them.
 */

const WEB_DIR = fileURLToPath(new URL('../apps/web', import.meta.url));
const WORKER_ENTRY = fileURLToPath(new URL('../apps/worker/src/server.ts', import.meta.url));

let stack: AuthStack;
let worker: SpawnedService;
let browser: Browser;

beforeAll(async () => {
  await buildWebIfChanged(WEB_DIR);
  const workerPort = await freePort();
  // Its own database: the worker beside it acts on every row it finds.
  stack = await startAuthStack({
    name: 'web-naming',
    isolatedDatabase: true,
    apiEnv: { WEB_DIST_DIR: `${WEB_DIR}/dist` },
  });
  worker = spawnService(WORKER_ENTRY, { ...stack.serviceEnv, WORKER_PORT: String(workerPort) });
  await waitForStatus(worker, `http://127.0.0.1:${workerPort}/health/ready`, 200, 60_000);
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await stack?.close();
});

describe('naming templates and "Name again" in the web app', () => {
  it('keeps account defaults, refuses an unknown token on upload with the server’s reason, names a batch by its template, previews a new one live, and names the selected image and then the batch again', async () => {
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${stack.apiUrl}/`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill('grace@renamer.test');
    await page.getByLabel('Display name').fill('Grace');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${stack.apiUrl}/`);

    // Account defaults: instructions kept for new batches.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('Default instructions for the vision model').fill('British English');
    await page.getByRole('button', { name: 'Save defaults' }).click();
    await page.getByText('Saved: new batches use them.').waitFor();
    expect(await readAsPage(page, '/api/auth/me')).toMatchObject({ template: null, instructions: 'British English' });

    // An unknown token: the server's reason under the field, and the photos still there to send.
    await page.getByRole('link', { name: 'Upload' }).click();
    const files = await Promise.all(
      [401, 402].map(async (seed) => ({
        name: `IMG_${seed}.JPG`,
        mimeType: 'image/jpeg',
        buffer: await photo('jpeg', seed),
      })),
    );
    await page.getByLabel('Photos', { exact: true }).setInputFiles(files);
    const template = page.getByLabel('Naming template (optional)');
    await template.fill('{colour}-shoes');
    await page.getByRole('button', { name: 'Upload 2 photos' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Unknown token \{colour\}/);
    expect(await template.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'naming-upload-refused');
    expect(await readAsPage<{ used: number }>(page, '/api/auth/quota')).toMatchObject({ used: 0 });

    await template.fill('acme-{subject}-{seq:2}');
    await page.getByRole('button', { name: 'Upload 2 photos' }).click();
    await page.getByText('2 uploaded, 0 already in your account, 0 refused.').waitFor();
    await expect.poll(() => page.getByTestId('batch-status').textContent(), { timeout: 30_000 }).toBe('completed');
    await expect
      .poll(async () => (await page.getByTestId('proposed-name').allTextContents()).sort())
      .toEqual([
        expect.stringMatching(/^acme-[a-z0-9-]+-01\.jpg$/),
        expect.stringMatching(/^acme-[a-z0-9-]+-02\.jpg$/),
      ]);
    // The next upload's template (the form back from the summary), previewed on the photos just uploaded.
    await page.getByRole('button', { name: 'Upload more photos' }).click();
    await template.fill('brand-{subject}');
    await expect
      .poll(() =>
        page
          .getByRole('list', { name: 'Names the template would give' })
          .getByTestId('template-preview-name')
          .allTextContents(),
      )
      .toEqual([expect.stringMatching(/^brand-[a-z0-9-]+\.jpg$/), expect.stringMatching(/^brand-[a-z0-9-]+\.jpg$/)]);
    expect(await seriousViolations(page)).toEqual([]);

    // The review page: the batch's template and instructions, and a live preview of a new template.
    await page.getByRole('button', { name: 'Review' }).click();
    const batchTemplate = page.getByLabel('Naming template', { exact: true });
    await expect.poll(() => batchTemplate.inputValue()).toBe('acme-{subject}-{seq:2}');
    expect(await page.getByLabel('Instructions for the vision model').inputValue()).toBe('British English');
    await batchTemplate.fill('shop-{subject}-{seq:2}');
    const preview = page.getByRole('list', { name: 'Names the template would give' });
    await expect
      .poll(() => preview.getByTestId('template-preview-name').allTextContents())
      .toEqual([
        expect.stringMatching(/^shop-[a-z0-9-]+-01\.jpg$/),
        expect.stringMatching(/^shop-[a-z0-9-]+-02\.jpg$/),
      ]);
    const previewed = await preview.getByTestId('template-preview-name').allTextContents();
    await screenshot(page, 'naming-preview');
    await page.getByRole('button', { name: 'Save template and instructions' }).click();
    await page.getByText('Saved: “Name again” uses them.').waitFor();

    // The first image selected with x, named again after its change is shown. The list in upload order: renamed
    // images may change their scores, and the rows their places.
    await page.getByLabel('Order').selectOption('upload');
    const list = page.getByRole('listbox', { name: 'Images of the batch' });
    const [first, second] = [list.getByRole('option').nth(0), list.getByRole('option').nth(1)];
    const secondBefore = await second.getByTestId('filename').textContent();
    await list.focus();
    await page.keyboard.press('x');
    await expect.poll(() => first.getAttribute('aria-selected')).toBe('true');
    await page.getByRole('button', { name: 'Name the 1 selected image again…' }).click();
    const changes = page.getByRole('list', { name: 'Name changes' });
    await expect.poll(() => changes.getByRole('listitem').count()).toBe(1);
    expect(await changes.textContent()).toContain(`→ ${previewed[0]}`);
    await screenshot(page, 'naming-again');
    // Only a preview so far: the list still shows the old name.
    expect(await first.getByTestId('filename').textContent()).toMatch(/^acme-/);
    await page.getByRole('button', { name: 'Apply 1 change' }).click();
    await expect.poll(() => first.getByTestId('filename').textContent(), { timeout: 20_000 }).toBe(previewed[0]);
    await page.getByText('Names proposed again: the list shows them.').waitFor();
    expect(await second.getByTestId('filename').textContent()).toBe(secondBefore);

    // Then the whole batch: the one image left changes.
    await page.getByRole('button', { name: 'Name the whole batch again…' }).click();
    await expect.poll(() => changes.getByRole('listitem').count()).toBe(1);
    expect(await changes.textContent()).toContain(`${secondBefore} → ${previewed[1]}`);
    await page.getByRole('button', { name: 'Apply 1 change' }).click();
    await expect.poll(() => second.getByTestId('filename').textContent(), { timeout: 20_000 }).toBe(previewed[1]);

    // The history says the analyser made the change.
    await list.focus();
    await page.keyboard.press('ArrowDown');
    const history = page.getByRole('list', { name: 'Name history' });
    await expect
      .poll(() => history.getByRole('listitem').first().textContent())
      .toContain(`${secondBefore} → ${previewed[1]}`);
    expect(await history.getByRole('listitem').first().textContent()).toContain('proposed by the analyser');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
