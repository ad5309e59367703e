import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_OPENAPI_FILE, generateAdminOpenApiDocument } from '../src/openapi-document';
import { startAdminApi } from './support/admin-api';

interface OpenApiPaths {
  paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
}

let admin: Awaited<ReturnType<typeof startAdminApi>>;

beforeAll(async () => {
  admin = await startAdminApi('admin-openapi');
});
afterAll(() => admin?.close());

describe('docs/admin-openapi.json', () => {
  it('is the document the code generates (run `pnpm openapi` after changing a route)', async () => {
    const committed = await readFile(ADMIN_OPENAPI_FILE, 'utf8');
    expect(committed).toBe(await generateAdminOpenApiDocument());
  });

  it('is served at /api/admin/openapi.json without credentials', async () => {
    const response = await fetch(`${admin.url}/api/admin/openapi.json`);
    expect(response.status).toBe(200);
    const served = await response.json();
    expect(served).toEqual(JSON.parse(await readFile(ADMIN_OPENAPI_FILE, 'utf8')));
  });

  it('documents the ban with the problems an operator can meet', async () => {
    const served = (await (await fetch(`${admin.url}/api/admin/openapi.json`)).json()) as OpenApiPaths;
    const ban = served.paths['/api/admin/users/{id}/ban']?.post;
    expect(ban).toMatchObject({ operationId: 'banUser', security: [{ session: [] }, { apiKey: [] }] });
    expect(Object.keys(ban?.responses ?? {})).toEqual(['200', '400', '401', '403', '404', '409', '429', '500']);
    expect(ban?.responses['403']?.content).toEqual({
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    });
  });
});
