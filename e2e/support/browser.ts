import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core');
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** Serious or critical accessibility violations axe-core finds on the page as it stands. */
export async function seriousViolations(page: Page) {
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

/**
 * With SCREENSHOTS_DIR set (`npm run screenshots`), the page as it stands at desktop and phone width, as
 * `<name>-desktop.png` and `<name>-phone.png`: the README's pictures are the states these tests reach.
 */
export async function screenshot(page: Page, name: string) {
  const dir = process.env.SCREENSHOTS_DIR;
  if (!dir) return;
  const before = page.viewportSize();
  for (const [width, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/** What the page's own session reads from the API (or the admin API through it). */
export async function readAsPage<T>(page: Page, path: string): Promise<T> {
  return (await page.evaluate(async (url) => (await fetch(url)).json(), path)) as T;
}
