import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AuthStack, startAuthStack } from '@renamer/api/testing';
import { freePort, type SpawnedService, spawnService, testDir, waitForStatus } from '@renamer/runtime/testing';
import chromium from '@sparticuz/chromium';
import {
  type Browser,
  type BrowserContext,
  type Download,
  type Locator,
  type Page,
  chromium as playwright,
} from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildWebIfChanged } from '../../scripts/stack/web-build';

/**
 * The web app in a real browser (the Chromium of @sparticuz/chromium), served by the API from its own origin, with
 * the worker and the admin API beside it: one stack and one browser that every file of cases under e2e/web shares
 * (e2e/web.test.ts runs them all).
 */

const WEB_DIR = fileURLToPath(new URL('../../apps/web', import.meta.url));
const WORKER_ENTRY = fileURLToPath(new URL('../../apps/worker/src/server.ts', import.meta.url));
const ADMIN_ENTRY = fileURLToPath(new URL('../../apps/admin-api/src/server.ts', import.meta.url));
/** The email the stack makes an admin. */
export const OPERATOR = 'ops@renamer.test';

export interface WebApp {
  readonly stack: AuthStack;
  /** One browser context for the run: this Chromium runs single-process, and closing a context ends it. */
  readonly context: BrowserContext;
  readonly browser: Browser;
}

/** Starts the stack and the browser before the file's tests and stops them after; read the fields inside tests. */
export function useWebApp(): WebApp {
  let stack: AuthStack | undefined;
  let worker: SpawnedService | undefined;
  let adminApi: SpawnedService | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    await buildWebIfChanged(WEB_DIR);
    // Its own database: the worker beside it acts on every row it finds.
    const [workerPort, adminPort] = [await freePort(), await freePort()];
    stack = await startAuthStack({
      name: 'web-app',
      isolatedDatabase: true,
      adminEmails: OPERATOR,
      apiEnv: {
        WEB_DIST_DIR: `${WEB_DIR}/dist`,
        ADMIN_API_URL: `http://127.0.0.1:${adminPort}`,
        // The cases act as a few people doing a day's review in seconds, far past a person's 300 a minute
        // (apps/api/test/*rate-limit*.test.ts holds the limits to account).
        RATE_LIMIT_PER_MINUTE: '3000',
      },
    });
    worker = spawnService(WORKER_ENTRY, { ...stack.serviceEnv, WORKER_PORT: String(workerPort) });
    adminApi = spawnService(ADMIN_ENTRY, {
      ...stack.serviceEnv,
      ADMIN_API_PORT: String(adminPort),
      METRICS_TARGETS: `api=${stack.apiUrl}/metrics,worker=http://127.0.0.1:${workerPort}/metrics`,
    });
    await Promise.all([
      waitForStatus(worker, `http://127.0.0.1:${workerPort}/health/ready`, 200, 60_000),
      waitForStatus(adminApi, `http://127.0.0.1:${adminPort}/health/ready`, 200, 60_000),
    ]);
    browser = await launchBrowser();
    // This machine's POSIX locale (`en-US@posix`) is no browser's: Intl refuses it.
    context = await browser.newContext({ locale: 'en-US' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([worker?.stop(), adminApi?.stop()]);
    await stack?.close();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the web app is not started: read it inside a test');
    return value;
  };
  return {
    get stack() {
      return started(stack);
    },
    get context() {
      return started(context);
    },
    get browser() {
      return started(browser);
    },
  };
}

/** A Chromium of its own (its own cookie store): for a second person at the same time. */
export async function launchBrowser() {
  return playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args });
}

/**
 * Signs in at the development provider from the app's own "Sign in" link, whoever was signed in before: the
 * context's cookies (this Chromium's one cookie store) are cleared first.
 */
export async function signIn(app: WebApp, page: Page, email: string, name: string) {
  await page.context().clearCookies();
  await page.goto(`${app.stack.apiUrl}/`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Display name').fill(name);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${app.stack.apiUrl}/`);
}

/** A new page of the shared context whose uncaught errors are collected in `errors`. */
export async function watchedPage(app: WebApp) {
  const page = await app.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/** The status endpoint of the batch under review, read from the page's address. */
export function batchStatusUrl(page: Page) {
  const batchId = new URL(page.url()).pathname.split('/').pop();
  return `/api/batch/${batchId}/status`;
}

/** The parts of a DOM element the checks below read, in a file compiled without the DOM's types. */
export interface InPage {
  tagName: string;
  blur(): void;
  matches(selector: string): boolean;
  contains(other: unknown): boolean;
  getBoundingClientRect(): { left: number; top: number; right: number; bottom: number; width: number; height: number };
  ownerDocument: {
    activeElement: InPage | null;
    elementFromPoint(x: number, y: number): unknown;
    documentElement: { clientWidth: number; clientHeight: number; scrollWidth: number };
  };
}

/** How a dialog stands: shown as a modal, itself drawn at its centre, inside the viewport, holding the focus. */
export function dialogState(dialog: Locator) {
  return dialog.evaluate((element: InPage) => {
    const box = element.getBoundingClientRect();
    const { activeElement, documentElement: view } = element.ownerDocument;
    const centre = element.ownerDocument.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
    return {
      modal: element.matches(':modal'),
      atCentre: element.contains(centre),
      inView: box.left >= 0 && box.top >= 0 && box.right <= view.clientWidth && box.bottom <= view.clientHeight,
      focusInside: element.contains(activeElement),
      focused: activeElement?.tagName,
    };
  });
}

/** Whether the element has the page's focus. */
export const hasFocus = (locator: Locator) =>
  locator.evaluate((element: InPage) => element.ownerDocument.activeElement === element);

/** Whether the element lies wholly inside the viewport. */
export const inViewport = (locator: Locator) =>
  locator.evaluate((element: InPage) => {
    const box = element.getBoundingClientRect();
    const view = element.ownerDocument.documentElement;
    return box.top >= 0 && box.left >= 0 && box.bottom <= view.clientHeight && box.right <= view.clientWidth;
  });

/** The names inside a downloaded archive. */
export async function archiveListing(download: Download, name: string) {
  const saved = join(testDir('web-downloads'), name);
  await download.saveAs(saved);
  return execFileSync('unzip', ['-Z1', saved], { encoding: 'utf8' }).trim().split('\n');
}

/** The two viewports the checks run at. */
export const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
