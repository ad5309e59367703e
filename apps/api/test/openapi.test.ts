import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateOpenApiDocument, OPENAPI_FILE } from '../src/openapi-document';

interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> };
  summary?: string;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}

const committed = await readFile(OPENAPI_FILE, 'utf8');
const document = JSON.parse(committed) as { paths: Record<string, Record<string, Operation>> };
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
);
const operation = (name: string) => operations.find((entry) => entry.name === name)?.operation;
const statuses = (name: string) => Object.keys(operation(name)?.responses ?? {});

describe('docs/openapi.json', () => {
  it('is the document the code generates (run `pnpm openapi` after changing a route)', async () => {
    expect(committed).toBe(await generateOpenApiDocument());
  });

  it('names and summarises every operation, and answers its errors with problem documents', () => {
    for (const { name, operation } of operations) {
      expect(operation.operationId, name).toBeTruthy();
      expect(operation.summary, name).toBeTruthy();
      for (const status of ['429', '500']) {
        expect(operation.responses[status]?.content, `${name} ${status}`).toHaveProperty(['application/problem+json']);
      }
    }
  });

  it('marks the public operations security: [], and documents 401 and 403 for the others', () => {
    const publicOperations = operations.filter(({ operation }) => operation.security?.length === 0);
    expect(publicOperations.map(({ name }) => name).sort()).toEqual([
      'GET /api/auth/callback',
      'GET /api/auth/csrf',
      'GET /api/auth/login',
      'GET /api/auth/providers',
      'GET /api/files/{token}',
      'POST /api/payments/webhook',
    ]);
    for (const { name, operation } of operations.filter((entry) => !publicOperations.includes(entry))) {
      expect(operation.security, name).toEqual([{ session: [] }, { apiKey: [] }]);
      expect(Object.keys(operation.responses), name).toEqual(expect.arrayContaining(['401', '403']));
    }
  });

  it('documents what an upload, a cancel, a retry and a download link can answer', () => {
    expect(statuses('POST /api/batch')).toEqual(
      expect.arrayContaining(['201', '400', '402', '409', '413', '415', '422']),
    );
    expect(statuses('POST /api/batch/{batchId}/cancel')).toEqual(expect.arrayContaining(['202', '404', '409']));
    expect(statuses('POST /api/batch/{batchId}/retry')).toEqual(expect.arrayContaining(['202', '404', '409']));
    expect(statuses('GET /api/files/{token}')).toEqual(expect.arrayContaining(['200', '403', '404', '410']));
  });

  it('describes the upload as the multipart form a generated client sends: files, name, keywords, context, locale, template, instructions, duplicates', () => {
    const form = operation('POST /api/batch')?.requestBody?.content['multipart/form-data']?.schema;
    expect(Object.keys(form?.properties ?? {}).sort()).toEqual([
      'context',
      'duplicates',
      'files',
      'instructions',
      'keywords',
      'locale',
      'name',
      'template',
    ]);
    expect(form?.required).toEqual(['files']);
    expect(form?.properties.files).toMatchObject({ type: 'array', items: { type: 'string', format: 'binary' } });
  });

  it('says which codes share a status, e.g. a list answering 400 for a cursor it did not issue', () => {
    const badRequest = operation('GET /api/batch')?.responses['400'] as { description: string };
    expect(badRequest.description).toContain('invalid_cursor');
  });
});
