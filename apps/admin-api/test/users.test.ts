import { randomUUID } from 'node:crypto';
import { connectWs } from '@renamer/api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminStack,
  signedIn as signedInTo,
  startAdminStack,
  userWithApiKey as withApiKey,
} from './support/admin-stack';

const ADMIN_EMAIL = 'ops@renamer.test';
let stack: AdminStack;

beforeAll(async () => {
  stack = await startAdminStack({ name: 'admin-users', adminEmails: ADMIN_EMAIL });
});
const signedIn = (email?: string) => signedInTo(stack, email);
const userWithApiKey = () => withApiKey(stack);
afterAll(() => stack?.close());

describe('bans', () => {
  it("bans a user with the session cookie and the API's CSRF token; their API key then answers 403 banned until an unban", async () => {
    const admin = await signedIn(ADMIN_EMAIL);
    const user = await userWithApiKey();
    expect((await user.callApi()).status).toBe(200);

    const ban = await admin.admin.fetch(`/api/admin/users/${user.id}/ban`, {
      method: 'POST',
      json: { reason: 'spam uploads' },
      csrf: await admin.api.csrfToken(),
    });
    expect(ban.status).toBe(200);
    expect(await ban.json()).toMatchObject({ id: user.id, banReason: 'spam uploads', bannedAt: expect.any(String) });

    const refused = await user.callApi();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'banned' });
    expect((await user.api.fetch('/api/auth/me')).status).toBe(403);

    const unban = await admin.admin.fetch(`/api/admin/users/${user.id}/unban`, {
      method: 'POST',
      csrf: await admin.api.csrfToken(),
    });
    expect(unban.status).toBe(200);
    expect(await unban.json()).toMatchObject({ id: user.id, bannedAt: null, banReason: null });
    expect((await user.callApi()).status).toBe(200);
    expect((await user.api.fetch('/api/auth/me')).status).toBe(200);

    const audit = await stack.repositories.auditLog.list({ actorId: admin.id });
    expect(audit.items.map(({ action, targetType, targetId }) => ({ action, targetType, targetId }))).toEqual([
      { action: 'user.unban', targetType: 'user', targetId: user.id },
      { action: 'user.ban', targetType: 'user', targetId: user.id },
    ]);
  });

  it('refuses a cookie-authenticated ban without a CSRF token, or with one minted for another session (403)', async () => {
    const admin = await signedIn(ADMIN_EMAIL);
    const user = await userWithApiKey();
    const ban = (csrf?: string) =>
      admin.admin.fetch(`/api/admin/users/${user.id}/ban`, { method: 'POST', json: { reason: 'forged' }, csrf });

    const without = await ban();
    expect(without.status).toBe(403);
    expect(await without.json()).toMatchObject({ code: 'forbidden' });
    expect((await ban('not-a-real-token')).status).toBe(403);
    expect((await ban(await user.api.csrfToken())).status).toBe(403);
    expect((await user.callApi()).status).toBe(200);
  });

  it("accepts an admin's API key without a CSRF token", async () => {
    const admin = await signedIn(ADMIN_EMAIL);
    const created = await admin.api.fetch('/api/auth/api-keys', {
      method: 'POST',
      json: { name: 'ops script' },
      csrf: await admin.api.csrfToken(),
    });
    const { key } = (await created.json()) as { key: string };
    const user = await userWithApiKey();

    const ban = await fetch(`${stack.adminUrl}/api/admin/users/${user.id}/ban`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'scripted' }),
    });
    expect(ban.status).toBe(200);
    expect((await user.callApi()).status).toBe(403);
  });

  it('refuses a user who is not an admin with 403, and a caller without credentials with 401', async () => {
    const someone = await signedIn();
    const user = await userWithApiKey();
    const asUser = await someone.admin.fetch(`/api/admin/users/${user.id}/ban`, {
      method: 'POST',
      json: { reason: 'not allowed' },
      csrf: await someone.api.csrfToken(),
    });
    expect(asUser.status).toBe(403);
    expect(await asUser.json()).toMatchObject({ code: 'forbidden' });

    const anonymous = await fetch(`${stack.adminUrl}/api/admin/users/${user.id}/ban`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'anonymous' }),
    });
    expect(anonymous.status).toBe(401);
    expect((await user.callApi()).status).toBe(200);
  });

  it('answers 404 for a user that does not exist, 400 without a reason, and 409 for banning oneself', async () => {
    const admin = await signedIn(ADMIN_EMAIL);
    const post = async (userId: string, json: unknown) =>
      admin.admin.fetch(`/api/admin/users/${userId}/ban`, { method: 'POST', json, csrf: await admin.api.csrfToken() });

    const missing = await post(randomUUID(), { reason: 'gone' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });

    const user = await userWithApiKey();
    const blank = await post(user.id, { reason: '   ' });
    expect(blank.status).toBe(400);
    expect(await blank.json()).toMatchObject({ code: 'validation_failed' });

    const self = await post(admin.id, { reason: 'oops' });
    expect(self.status).toBe(409);
    expect(await self.json()).toMatchObject({ code: 'conflict' });
    expect((await admin.admin.fetch('/api/admin/health')).status).toBe(200);
  });
});

describe('finding and changing users', () => {
  it('finds a user by email (by its hash), by id and by part of the name, and filters the banned', async () => {
    const admin = await signedIn(ADMIN_EMAIL);
    const email = `Findable-${randomUUID().slice(0, 8)}@Renamer.test`;
    const user = await signedIn(email);
    const search = async (query: string) => {
      const response = await admin.admin.fetch(`/api/admin/users?${query}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { items: { id: string }[] }).items.map((item) => item.id);
    };

    expect(await search(`q=${encodeURIComponent(email.toLowerCase())}`)).toEqual([user.id]);
    expect(await search(`q=${user.id}`)).toEqual([user.id]);
    expect(await search('q=test%20person&limit=100')).toContain(user.id);
    expect(await search(`q=${encodeURIComponent('nobody@renamer.test')}`)).toEqual([]);

    await admin.admin.fetch(`/api/admin/users/${user.id}/ban`, {
      method: 'POST',
      json: { reason: 'to filter' },
      csrf: await admin.api.csrfToken(),
    });
    expect(await search('banned=true&limit=100')).toContain(user.id);
    expect(await search('banned=false&limit=100')).not.toContain(user.id);
  });

  it('shows a user with this month’s usage and what they hold', async () => {
    const admin = await signedIn(ADMIN_EMAIL);
    const user = await userWithApiKey();
    const response = await admin.admin.fetch(`/api/admin/users/${user.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: user.id,
      plan: 'basic',
      usage: { quota: 50, used: 0, remaining: 50 },
      batches: 0,
      activeSessions: 1,
      activeApiKeys: 1,
      payments: [],
    });
    expect((await admin.admin.fetch(`/api/admin/users/${randomUUID()}`)).status).toBe(404);
  });

  it('changes a plan, which the user’s quota then shows, and records before and after', async () => {
    const admin = await signedIn(ADMIN_EMAIL);
    const user = await userWithApiKey();
    const change = await admin.admin.fetch(`/api/admin/users/${user.id}`, {
      method: 'PATCH',
      json: { plan: 'pro' },
      csrf: await admin.api.csrfToken(),
    });
    expect(change.status).toBe(200);
    expect(await change.json()).toMatchObject({ id: user.id, plan: 'pro', quota: 500 });

    const quota = await user.callApi('/api/auth/quota');
    expect(await quota.json()).toMatchObject({ plan: 'pro', quota: 500, remaining: 500 });

    const override = await admin.admin.fetch(`/api/admin/users/${user.id}`, {
      method: 'PATCH',
      json: { quota: 750 },
      csrf: await admin.api.csrfToken(),
    });
    expect(await override.json()).toMatchObject({ plan: 'pro', quota: 750 });

    const audit = await admin.admin.fetch(`/api/admin/audit-log?targetId=${user.id}&action=user.update`);
    const { items } = (await audit.json()) as { items: Record<string, unknown>[] };
    expect(items).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        before: expect.objectContaining({ plan: 'pro', quota: 500 }),
        after: expect.objectContaining({ plan: 'pro', quota: 750 }),
        requestId: expect.any(String),
      }),
      expect.objectContaining({
        before: expect.objectContaining({ plan: 'basic', quota: 50 }),
        after: expect.objectContaining({ plan: 'pro', quota: 500 }),
      }),
    ]);
  });

  it('makes a user an admin, but never lets an admin demote themself', async () => {
    const admin = await signedIn(ADMIN_EMAIL);
    const user = await userWithApiKey();
    const patch = async (id: string, json: unknown) =>
      admin.admin.fetch(`/api/admin/users/${id}`, { method: 'PATCH', json, csrf: await admin.api.csrfToken() });

    expect(await (await patch(user.id, { role: 'admin' })).json()).toMatchObject({ role: 'admin' });
    expect((await user.admin.fetch('/api/admin/health')).status).toBe(200);

    const self = await patch(admin.id, { role: 'user' });
    expect(self.status).toBe(409);
    expect(await self.json()).toMatchObject({ code: 'conflict' });
    expect((await patch(user.id, {})).status).toBe(400);
    expect((await admin.admin.fetch('/api/admin/health')).status).toBe(200);
  });
});

describe('a ban at once', () => {
  it('stops the user’s session, API key and open WebSocket, and the audit log records it with before and after', async () => {
    const admin = await signedIn(ADMIN_EMAIL);
    const user = await userWithApiKey();
    const socket = await connectWs(stack.apiUrl, { authorization: `Bearer ${user.key}` });
    const closed = new Promise<number>((resolve) => socket.socket.once('close', (code: number) => resolve(code)));

    const ban = await admin.admin.fetch(`/api/admin/users/${user.id}/ban`, {
      method: 'POST',
      json: { reason: 'abuse' },
      csrf: await admin.api.csrfToken(),
    });
    expect(ban.status).toBe(200);
    // The socket's periodic credential check is 25 s away: only the announcement closes it this soon.
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 3_000))])).toBe(
      1008,
    );
    expect((await user.callApi()).status).toBe(403);
    expect((await user.api.fetch('/api/auth/me')).status).toBe(403);

    const audit = await admin.admin.fetch(`/api/admin/audit-log?targetId=${user.id}&action=user.ban`);
    expect(((await audit.json()) as { items: unknown[] }).items).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        targetType: 'user',
        before: expect.objectContaining({ bannedAt: null }),
        after: expect.objectContaining({ bannedAt: expect.any(String), banReason: 'abuse' }),
        details: { reason: 'abuse' },
        requestId: expect.any(String),
      }),
    ]);
  });
});
