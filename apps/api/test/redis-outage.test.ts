import { generateApiKey } from '@renamer/auth';
import { createRepositories } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import { createPlatform, type Logger, type Platform } from '@renamer/runtime';
import { freePort, testServiceEnv } from '@renamer/runtime/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../src/app';
import { loadApiEnv } from '../src/env';
import { photo } from './support/images';

let platform: Platform;
let app: FastifyInstance;
let key: string;
const logLines: Record<string, unknown>[] = [];

/** A logger that keeps every line it is given, with the bindings of its parents (`requestId` among them). */
function recordingLogger(bindings: Record<string, unknown> = {}): Logger {
  const write = (level: string) => (first: unknown, message?: string) => {
    const fields = typeof first === 'object' && first !== null ? first : { msg: first };
    logLines.push({ level, ...bindings, ...fields, ...(message ? { msg: message } : {}) });
  };
  return {
    level: 'info',
    ...Object.fromEntries(['fatal', 'error', 'warn', 'info', 'debug', 'trace'].map((level) => [level, write(level)])),
    child: (more: Record<string, unknown>) => recordingLogger({ ...bindings, ...more }),
  } as unknown as Logger;
}

beforeAll(async () => {
  // Nothing listens on this port: Redis is down for this API's whole life.
  const env = loadApiEnv({ ...testServiceEnv('redis-outage'), REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
  platform = createPlatform(env);
  app = await buildApi({ env, logger: recordingLogger(), platform });
  const repositories = createRepositories(platform.db.db);
  const user = await repositories.users.create({
    provider: 'https://issuer.test',
    providerSubject: crypto.randomUUID(),
    displayName: 'Outage',
    emailHash: emailHash(`${crypto.randomUUID()}@renamer.test`),
  });
  const generated = generateApiKey();
  await repositories.apiKeys.create({ userId: user.id, name: 'k', prefix: generated.prefix, keyHash: generated.hash });
  key = generated.key;
});

afterAll(async () => {
  await app?.close();
  await platform?.close();
});

describe('with Redis down', () => {
  it('still answers requests (rate limits let them pass) and says why it is not ready', async () => {
    const me = await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${key}` } });
    expect(me.statusCode).toBe(200);
    const ready = await app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ failed: ['redis'] });
  });

  it('accepts an upload and keeps its images queued for the reconciler, losing nothing', async () => {
    const form = new FormData();
    form.append('files', new Blob([await photo('png', 990)], { type: 'image/png' }), 'kept.png');
    const response = await fetch(`${await app.listen({ port: 0, host: '127.0.0.1' })}/api/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-request-id': 'upload-during-outage' },
      body: form,
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { batchId: string; accepted: { imageId: string }[] };
    const [image] = await platform.db.sql`select status from images where id = ${body.accepted[0]!.imageId}`;
    expect(image?.status).toBe('queued');
    // The service's own line carries the request's id, so an operator finds it from the answer's x-request-id.
    expect(logLines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'batch not queued; the reconciler will',
        batchId: body.batchId,
        requestId: 'upload-during-outage',
      }),
    );
  });
});
