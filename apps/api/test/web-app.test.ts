import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { testDir } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, startApiStack } from './support/api-stack';

/** A build of the web app as `vite build` leaves it: index.html and content-hashed assets. */
const build = testDir('web-dist');
const INDEX =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-3f9a.js"></script></body></html>';

/** The API's rate limit here: the last test spends it, the tests before it ask /api less often than that. */
const RATE_LIMIT = 100;

let stack: ApiStack;
let url: string;

beforeAll(async () => {
  await mkdir(join(build, 'assets'), { recursive: true });
  await writeFile(join(build, 'assets', 'index-3f9a.js'), 'console.log("app")');
  await writeFile(join(build, 'index.html.pending'), INDEX);
  stack = await startApiStack('web-app', { WEB_DIST_DIR: build, RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
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

  it('never answers for the API: an unknown /api path is a 404 problem whatever the method, a known one still needs credentials', async () => {
    for (const path of ['/api/no-such-thing', '/api', '/api?page=1', '/api/no/such/thing?x=1']) {
      for (const method of ['GET', 'HEAD', 'DELETE', 'PATCH']) {
        const unknown = await fetch(`${url}${path}`, { method });
        expect({ method, path, status: unknown.status }).toEqual({ method, path, status: 404 });
        expect(unknown.headers.get('content-type')).toContain('application/problem+json');
        if (method !== 'HEAD') expect(await unknown.json()).toMatchObject({ status: 404, code: 'not_found' });
      }
    }
    const owner = await stack.createUser();
    expect((await fetch(`${url}/api/batch`, { headers: owner.headers })).status).toBe(200);
  });

  it('answers an over-long path parameter under /api with a 414 problem for every method, never with the page', async () => {
    const long = 'a'.repeat(5000);
    for (const [what, path] of [
      ['a file', `/api/files/${long}`],
      ['a preview', `/api/image/${long}/preview`],
      ['an unknown path', `/api/no-such-thing/${long}`],
    ]) {
      for (const method of ['GET', 'HEAD', 'DELETE', 'PATCH', 'POST']) {
        const answer = await fetch(`${url}${path}`, { method });
        expect({ what, method, status: answer.status }).toEqual({ what, method, status: 414 });
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        if (method !== 'HEAD') expect(await answer.json()).toMatchObject({ status: 414, code: 'uri_too_long' });
      }
    }
    // Outside /api an over-long path is still a page of the app (its first page, for a path it does not know).
    expect((await fetch(`${url}/batches/${long}`)).headers.get('content-type')).toContain('text/html');
  });
  it('serves hashed assets as immutable, outside the API’s rate limit', async () => {
    for (let i = 0; i < 6; i++) {
      const asset = await fetch(`${url}/assets/index-3f9a.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    // Last in the file: it spends the address's requests.
    const statuses = [];
    for (let i = 0; i < RATE_LIMIT + 1; i++) statuses.push((await fetch(`${url}/api/auth/me`)).status);
    expect(statuses).toContain(429);
  });
});
