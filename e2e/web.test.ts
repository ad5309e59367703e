import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AuthStack, photo, startAuthStack } from '@renamer/api/testing';
import { freePort, type SpawnedService, spawnService, testDir, waitForStatus } from '@renamer/service-kit/testing';
import chromium from '@sparticuz/chromium';
import { type Browser, type BrowserContext, chromium as playwright } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebIfChanged } from '../scripts/stack/web-build';

/** The web app in a real browser (the Chromium of @sparticuz/chromium), served by the API from its own origin. */

const WEB_DIR = fileURLToPath(new URL('../apps/web', import.meta.url));
const AXE = createRequire(import.meta.url).resolve('axe-core');
const WORKER_ENTRY = fileURLToPath(new URL('../apps/worker/src/server.ts', import.meta.url));

let stack: AuthStack;
let worker: SpawnedService;
let browser: Browser;
/** One browser context for the file: this Chromium runs single-process, and closing a context ends it. */
let context: BrowserContext;

beforeAll(async () => {
  await buildWebIfChanged(WEB_DIR);
  // Its own database: the worker beside it acts on every row it finds.
  stack = await startAuthStack({
    name: 'web-app',
    isolatedDatabase: true,
    apiEnv: { WEB_DIST_DIR: `${WEB_DIR}/dist` },
  });
  const port = await freePort();
  worker = spawnService(WORKER_ENTRY, { ...stack.serviceEnv, WORKER_PORT: String(port) });
  await waitForStatus(worker, `http://127.0.0.1:${port}/health/ready`, 200, 60_000);
  browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args });
  context = await browser.newContext();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await stack?.close();
});

/** Serious or critical accessibility violations axe-core finds on the page as it stands. */
async function seriousViolations(page: import('playwright-core').Page) {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(readFileSync(AXE, 'utf8'));
  const found = await page.evaluate(async () => {
    const { violations } = await (
      globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }
    ).axe.run();
    return violations.map(({ id, impact }) => ({ id, impact }));
  });
  return found.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** The status endpoint of the batch under review, read from the page's address. */
async function batchStatusUrl(page: import('playwright-core').Page) {
  const batchId = new URL(page.url()).pathname.split('/').pop();
  return `/api/batch/${batchId}/status`;
}

describe('the web app', () => {
  it('signs a person in through the provider, shows their plan, and makes, shows once and revokes an API key', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${stack.apiUrl}/`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill('ada@renamer.test');
    await page.getByLabel('Display name').fill('Ada');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL(`${stack.apiUrl}/`);
    await page.getByRole('link', { name: 'Account' }).click();
    await expect.poll(() => page.getByLabel('Display name').inputValue()).toBe('Ada');
    await expect.poll(() => page.getByText(/Basic: 0 of 50 images used this month/).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Name of a new key').fill('laptop script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-api-key').textContent();
    expect(key).toMatch(/^rn_/);
    const asScript = () => fetch(`${stack.apiUrl}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(await (await asScript()).json()).toMatchObject({ displayName: 'Ada' });
    await expect
      .poll(() => page.getByRole('list', { name: 'Your API keys' }).getByText('laptop script').count())
      .toBe(1);

    await page.getByRole('button', { name: 'Revoke laptop script' }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Your API keys' }).getByText('laptop script').count())
      .toBe(0);
    expect((await asScript()).status).toBe(401);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs under the API’s own Content-Security-Policy and fits a phone’s width without horizontal scrolling', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) refused.push(message.text());
    });
    await page.goto(`${stack.apiUrl}/account`);
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

  it('uploads photos picked in the page, skips those already uploaded, and shows the batch finish live', async () => {
    const page = await context.newPage();
    await page.goto(`${stack.apiUrl}/`);
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

    await page.getByRole('link', { name: 'Batches' }).click();
    await expect
      .poll(() => page.getByTestId('batch-status').first().textContent(), { timeout: 20_000 })
      .toBe('completed');
    expect(await page.getByRole('list', { name: 'Your batches' }).getByRole('listitem').count()).toBe(1);
    const [archive] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download ZIP' }).click(),
    ]);
    const saved = join(testDir('web-downloads'), 'batch.zip');
    await archive.saveAs(saved);
    const listing = execFileSync('unzip', ['-Z1', saved], { encoding: 'utf8' }).trim().split('\n');
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
    const status = (await page.evaluate(
      async (batchUrl) => (await fetch(batchUrl)).json(),
      await batchStatusUrl(page),
    )) as {
      keywords: string[];
    };
    expect(status.keywords).toHaveLength(2);
    expect(status.keywords).not.toContain('red shoes');

    await list.focus();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Batches' }).waitFor();

    // The same photos again: hashed in the page, found in the account, not sent.
    await page.getByRole('link', { name: 'Upload' }).click();
    await page.getByLabel('Photos', { exact: true }).setInputFiles(files);
    await page.getByRole('button', { name: 'Upload 2 photos' }).click();
    await page.getByText('0 uploaded, 2 already in your account, 0 refused.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  }, 90_000);
});
