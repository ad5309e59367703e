import { PROBLEM_CONTENT_TYPE } from '@renamer/contracts';
import { createLogger } from '@renamer/runtime';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpService, registerOpenApi, withErrors } from '../src';

let app: FastifyInstance;
let document: OpenAPIV3_1.Document;

beforeAll(async () => {
  app = createHttpService({ service: 'test', logger: createLogger('test', process.env.LOG_LEVEL!), healthChecks: {} });
  await registerOpenApi(app, {
    title: 'Test API',
    version: '1.2.3',
    description: 'For the test.',
    path: '/api/test/openapi.json',
    securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } },
    tags: [{ name: 'things', description: 'Things.' }],
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/things',
    {
      schema: {
        tags: ['things'],
        operationId: 'listThings',
        summary: 'Things',
        response: { 200: z.array(z.string()) },
      },
    },
    async () => [],
  );
  // As the guard does: a scope whose routes need credentials says so, and what it answers without them.
  await app.register(async (guarded) => {
    guarded.addHook('onRoute', (route) => {
      route.schema = withErrors({ ...route.schema, security: [{ apiKey: [] }] }, ['unauthenticated']);
    });
    guarded.withTypeProvider<ZodTypeProvider>().post(
      '/api/things/:id/polish',
      {
        schema: {
          tags: ['things'],
          operationId: 'polishThing',
          summary: 'Polish a thing',
          params: z.object({ id: z.uuid() }),
          body: z.object({ shine: z.number() }),
          response: { 200: z.object({ id: z.uuid() }) },
          errors: ['conflict', 'filename_conflict'],
        },
      },
      async (request) => ({ id: request.params.id }),
    );
  });
  await app.ready();
  document = (await app.inject({ url: '/api/test/openapi.json' })).json();
});
afterAll(() => app?.close());

const operation = (path: string, method: 'get' | 'post') => document.paths?.[path]?.[method];

describe('the OpenAPI document', () => {
  it('is served without credentials and describes the service', () => {
    expect(document).toMatchObject({
      openapi: '3.1.0',
      info: { title: 'Test API', version: '1.2.3', license: { name: 'Proprietary' } },
    });
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('marks an operation without security as public, and keeps the security of one that has it', () => {
    expect(operation('/api/things', 'get')?.security).toEqual([]);
    expect(operation('/api/things/{id}/polish', 'post')?.security).toEqual([{ apiKey: [] }]);
  });

  it('gives every operation a problem document for what it can answer, one response per status', () => {
    const problem = { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } };
    const polish = operation('/api/things/{id}/polish', 'post')?.responses ?? {};
    expect(Object.keys(polish)).toEqual(['200', '400', '401', '404', '409', '500']);
    expect(polish['400']).toEqual({ description: 'Validation failed (`validation_failed`)', content: problem });
    expect(polish['409']).toEqual({
      description: 'Conflict (`conflict`); Filename conflict (`filename_conflict`)',
      content: problem,
    });
    expect(Object.keys(operation('/api/things', 'get')?.responses ?? {})).toEqual(['200', '500']);
    expect(document.components?.schemas?.Problem).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['type', 'title', 'status', 'detail', 'code', 'requestId']),
    });
  });

  it('keeps what a route declares out of the operation itself', () => {
    expect(operation('/api/things/{id}/polish', 'post')).not.toHaveProperty('errors');
  });
});
