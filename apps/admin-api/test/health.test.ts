import { browser } from '@renamer/api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminStack, startAdminStack } from './support/admin-stack';

const ADMIN_EMAIL = 'ops@renamer.test';
let stack: AdminStack;

beforeAll(async () => {
  stack = await startAdminStack({ name: 'admin-health', adminEmails: ADMIN_EMAIL });
});
afterAll(() => stack?.close());

/** Someone signed in on the API, calling the admin API with the cookies the API set (they belong to the host). */
async function onAdminApi(email: string) {
  const { jar } = await stack.signIn(email);
  return browser(stack.adminUrl, jar, stack.apiUrl);
}

describe('GET /api/admin/health', () => {
  it('answers an admin signed in on the API with dependencies, queue depths and workers', async () => {
    const response = await (await onAdminApi(ADMIN_EMAIL)).fetch('/api/admin/health');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { queues: Record<string, unknown> };
    expect(body).toMatchObject({ status: 'ok', checks: { db: { ok: true }, redis: { ok: true } } });
    expect(Object.keys(body.queues).sort()).toEqual(['batches', 'images', 'maintenance', 'webhooks']);
    expect(body.queues.maintenance).toMatchObject({ waiting: expect.any(Number), workers: expect.any(Number) });
  });

  it('refuses a signed-in user who is not an admin with 403, and a visitor with 401', async () => {
    const refused = await (await onAdminApi(`someone-${crypto.randomUUID()}@renamer.test`)).fetch('/api/admin/health');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'forbidden' });

    const anonymous = await fetch(`${stack.adminUrl}/api/admin/health`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'unauthenticated' });
  });
});
