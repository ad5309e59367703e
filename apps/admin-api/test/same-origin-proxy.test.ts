import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminStack, signedIn, startAdminStack } from './support/admin-stack';

const ADMIN_EMAIL = 'ops-proxy@renamer.test';
let stack: AdminStack;

beforeAll(async () => {
  stack = await startAdminStack({ name: 'admin-proxy', adminEmails: ADMIN_EMAIL });
});
afterAll(() => stack?.close());

/** The web app's admin dashboard calls the admin API on the API's own origin: `/api/admin/*` is passed on. */
describe('the admin API through the API’s origin', () => {
  it('answers an admin’s cookie and CSRF token there, changes included, and is audited as on the admin API', async () => {
    const admin = await signedIn(stack, ADMIN_EMAIL);
    const user = await signedIn(stack);

    const found = await admin.api.fetch(`/api/admin/users?q=${user.id}`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ items: [{ id: user.id }] });

    const changed = await admin.api.fetch(`/api/admin/users/${user.id}`, {
      method: 'PATCH',
      json: { plan: 'pro' },
      csrf: await admin.api.csrfToken(),
    });
    expect(changed.status).toBe(200);
    expect(await (await user.api.fetch('/api/auth/quota')).json()).toMatchObject({ plan: 'pro', quota: 500 });

    const audit = await admin.api.fetch(`/api/admin/audit-log?targetId=${user.id}`);
    expect(await audit.json()).toMatchObject({ items: [{ action: 'user.update', actorId: admin.id }] });
  });

  it('refuses what the admin API refuses: no credentials 401, a person without the role 403, a change without CSRF 403', async () => {
    const anonymous = await fetch(`${stack.apiUrl}/api/admin/users`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    const person = await signedIn(stack);
    const forbidden = await person.api.fetch('/api/admin/users');
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ code: 'forbidden' });

    const admin = await signedIn(stack, ADMIN_EMAIL);
    const noCsrf = await admin.api.fetch(`/api/admin/users/${person.id}/ban`, {
      method: 'POST',
      json: { reason: 'no token' },
    });
    expect(noCsrf.status).toBe(403);
    expect(await (await person.api.fetch('/api/auth/me')).json()).toMatchObject({ id: person.id });
  });

  it('answers 503 unavailable, with Retry-After, while the admin API is down', async () => {
    const admin = await signedIn(stack, ADMIN_EMAIL);
    await stack.admin.close();
    const down = await admin.api.fetch('/api/admin/users');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await down.json()).toMatchObject({ code: 'unavailable', detail: expect.stringMatching(/admin API/) });
    // The rest of the API is unaffected.
    expect((await admin.api.fetch('/api/auth/me')).status).toBe(200);
  });
});
