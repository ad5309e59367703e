import { openRoutes } from '@renamer/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminApi } from './support/admin-api';

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
