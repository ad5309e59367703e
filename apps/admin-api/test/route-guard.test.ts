import { forbiddenRoutes, openRoutes } from '@renamer/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminApi } from './support/admin-api';
import { startAdminStack, userWithApiKey } from './support/admin-stack';

let admin: Awaited<ReturnType<typeof startAdminApi>>;

beforeAll(async () => {
  admin = await startAdminApi('admin-route-guard');
});
afterAll(() => admin?.close());

describe('credentials by default', () => {
  it('answers every admin API route without credentials with 401, except the OpenAPI document, health and metrics', async () => {
    const { routes, open } = await openRoutes(admin.app, admin.url);
    expect(routes).toEqual(expect.arrayContaining(['GET /api/admin/health', 'POST /api/admin/users/:id/ban']));
    expect(open).toEqual(['GET /api/admin/openapi.json', 'GET /health/live', 'GET /health/ready', 'GET /metrics']);
  });
});

describe('the admin role', () => {
  it('refuses every admin route, read from the registered routes, to a user who is not an admin (403)', async () => {
    const stack = await startAdminStack({ name: 'admin-role-guard', adminEmails: 'someone-else@renamer.test' });
    try {
      const user = await userWithApiKey(stack);
      const { routes, open } = await openRoutes(stack.admin, stack.adminUrl);
      const guarded = routes.filter((route) => !open.includes(route));
      expect(guarded.length).toBeGreaterThan(10);
      expect(await forbiddenRoutes(stack.admin, stack.adminUrl, { authorization: `Bearer ${user.key}` })).toEqual(
        guarded,
      );
    } finally {
      await stack.close();
    }
  });
});
