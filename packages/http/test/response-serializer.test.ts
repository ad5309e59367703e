import { createLogger } from '@renamer/runtime';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpService } from '../src';

const Account = z.object({
  id: z.uuid(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  bannedAt: z.iso.datetime().nullable(),
});
const ID = '0b9c3a52-8a4e-4d8e-9f55-3c1c2f0a9b11';
const CREATED = '2026-11-23T10:00:00.000Z';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A service whose one route answers `body` under the Account schema (or `schema`, when given). */
async function answering(body: unknown, checkResponses: boolean, schema: z.ZodType = Account) {
  app = createHttpService({
    service: 'test',
    logger: createLogger('test', process.env.LOG_LEVEL!),
    healthChecks: {},
    checkResponses,
  });
  app.withTypeProvider<ZodTypeProvider>().get('/account', { schema: { response: { 200: schema } } }, async () => body);
  return app.inject({ method: 'GET', url: '/account' });
}

describe('answers written from the route schema', () => {
  it('writes the schema’s fields and nothing a handler adds by mistake', async () => {
    const answer = await answering(
      { id: ID, name: 'Ada', createdAt: CREATED, bannedAt: null, emailHash: 'a'.repeat(64), keyHash: 'secret' },
      false,
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ id: ID, name: 'Ada', createdAt: CREATED, bannedAt: null });
  });

  it('refuses, when checking, an answer that drifts from the contract', async () => {
    const answer = await answering({ id: 'not-a-uuid', name: 'Ada', createdAt: CREATED, bannedAt: null }, true);
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toMatchObject({ code: 'internal' });
    expect(answer.body).not.toContain('not-a-uuid');
  });

  it('keeps zod’s own serializer for a schema JSON Schema cannot express', async () => {
    const Stamped = z.object({ at: z.date() });
    const answer = await answering({ at: new Date(CREATED) }, false, Stamped);
    expect(answer.json()).toEqual({ at: CREATED });
  });
});
