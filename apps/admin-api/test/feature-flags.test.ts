import { FEATURE_FLAG_CACHE_MS } from '@renamer/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminStack, signedIn, startAdminStack, userWithApiKey } from './support/admin-stack';

const ADMIN_EMAIL = 'flags-ops@renamer.test';
let stack: AdminStack;

beforeAll(async () => {
  stack = await startAdminStack({ name: 'admin-feature-flags', adminEmails: ADMIN_EMAIL });
});
afterAll(() => stack?.close());

/** An upload of one file that is no image: refused for what it is while uploads are on. */
function uploadNotAnImage(user: Awaited<ReturnType<typeof userWithApiKey>>) {
  const form = new FormData();
  form.append('files', new Blob([Buffer.from('plain text, not a picture\n')], { type: 'image/jpeg' }), 'notes.jpg');
  return user.callApi('/api/batch', { method: 'POST', body: form });
}

describe('feature flags', () => {
  it('lists every flag with its default on a fresh database: all on but refuse-unsafe-images', async () => {
    const admin = await signedIn(stack, ADMIN_EMAIL);
    const response = await admin.admin.fetch('/api/admin/feature-flags');
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: { key: string; enabled: boolean; default: boolean }[] };
    expect(Object.fromEntries(items.map((flag) => [flag.key, flag.enabled]))).toEqual({
      'uploads-enabled': true,
      'llm-analysis': true,
      'llm-keywords': true,
      'embed-metadata': true,
      'refuse-unsafe-images': false,
    });
    expect(items.every((flag) => flag.enabled === flag.default)).toBe(true);
  });

  it('turns uploads off on the API within its cache time, audited with before and after, and on again', async () => {
    const admin = await signedIn(stack, ADMIN_EMAIL);
    const user = await userWithApiKey(stack);
    const csrf = await admin.api.csrfToken();
    const set = (enabled: boolean) =>
      admin.admin.fetch('/api/admin/feature-flags/uploads-enabled', { method: 'PUT', json: { enabled }, csrf });

    expect((await uploadNotAnImage(user)).status).toBe(422);
    const off = await set(false);
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ key: 'uploads-enabled', enabled: false, default: true });

    await expect
      .poll(async () => (await uploadNotAnImage(user)).status, { timeout: FEATURE_FLAG_CACHE_MS + 3_000 })
      .toBe(503);
    const refused = await uploadNotAnImage(user);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(await refused.json()).toMatchObject({ code: 'uploads_disabled', status: 503 });

    expect((await set(true)).status).toBe(200);
    await expect
      .poll(async () => (await uploadNotAnImage(user)).status, { timeout: FEATURE_FLAG_CACHE_MS + 3_000 })
      .toBe(422);

    const audit = await stack.repositories.auditLog.list({ actorId: admin.id, action: 'feature_flag.update' });
    expect(
      audit.items.map(({ targetId, before, after, requestId }) => ({ targetId, before, after, requestId })),
    ).toEqual([
      {
        targetId: 'uploads-enabled',
        before: expect.objectContaining({ enabled: false }),
        after: expect.objectContaining({ enabled: true }),
        requestId: expect.any(String),
      },
      {
        targetId: 'uploads-enabled',
        before: expect.objectContaining({ enabled: true }),
        after: expect.objectContaining({ enabled: false }),
        requestId: expect.any(String),
      },
    ]);
  });

  it('answers an unknown flag as not found and changes nothing', async () => {
    const admin = await signedIn(stack, ADMIN_EMAIL);
    const response = await admin.admin.fetch('/api/admin/feature-flags/free-beer', {
      method: 'PUT',
      json: { enabled: true },
      csrf: await admin.api.csrfToken(),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
    expect(await stack.repositories.featureFlags.get('free-beer')).toBeNull();
  });
});
