import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { testDir } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, startApiStack } from './support/api-stack';

/** A build of the web app as `vite build` leaves it: index.html and content-hashed assets. */
const build = testDir('web-dist');
const INDEX =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-3f9a.js"></script></body></html>';

let stack: ApiStack;
let url: string;

beforeAll(async () => {
  await mkdir(join(build, 'assets'), { recursive: true });
  await writeFile(join(build, 'assets', 'index-3f9a.js'), 'console.log("app")');
  await writeFile(join(build, 'index.html.pending'), INDEX);
  stack = await startApiStack('web-app', { WEB_DIST_DIR: build, RATE_LIMIT_PER_MINUTE: '3' });
  ({ url } = await stack.startApi());
});
afterAll(() => stack?.close());

describe('the web app from the API’s origin', () => {
  it('is ready only once the build is there to serve', async () => {
    const before = await fetch(`${url}/health/ready`);
    expect(before.status).toBe(503);
    expect(((await before.json()) as { failed: string[] }).failed).toEqual(['web']);
    await rename(join(build, 'index.html.pending'), join(build, 'index.html'));
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
  });

  it('serves the page at / and at every path of the app, never cached, with a policy that allows its own scripts', async () => {
    for (const path of ['/', '/batches/7c1e', '/account?tab=keys']) {
      const page = await fetch(`${url}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(await page.text()).toBe(INDEX);
    }
    const policy = (await fetch(`${url}/`)).headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("default-src 'self'");
  });

  it('never answers for the API: an unknown /api path is a 404 problem, a known one still needs credentials', async () => {
    const unknown = await fetch(`${url}/api/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    const owner = await stack.createUser();
    expect((await fetch(`${url}/api/batch`, { headers: owner.headers })).status).toBe(200);
  });
  it('serves hashed assets as immutable, outside the API’s rate limit', async () => {
    for (let i = 0; i < 6; i++) {
      const asset = await fetch(`${url}/assets/index-3f9a.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    // Last in the file: it spends the address's requests.
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${url}/api/auth/me`)).status);
    expect(statuses).toContain(429);
  });
});
