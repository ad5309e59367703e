import { AppError, Problem } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpService, createLogger } from '../src';

let app: FastifyInstance;
let storageUp = true;

beforeAll(async () => {
  app = createHttpService({
    service: 'test',
    logger: createLogger('test', 'silent'),
    healthChecks: {
      db: async () => undefined,
      storage: async () => {
        if (!storageUp) throw new Error('connect ECONNREFUSED 10.0.0.1:9000');
      },
    },
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/boom', async () => {
    throw new Error('relation "secret_table" does not exist at /srv/app/db.ts:42');
  });
  typed.get('/teapot', async () => {
    throw new AppError('quota_exceeded', 'This batch would take you past your monthly quota.');
  });
  typed.post(
    '/echo/:id',
    { schema: { params: z.object({ id: z.uuid() }), body: z.object({ name: z.string().min(1) }) } },
    async (req) => ({
      id: req.params.id,
    }),
  );
  await app.ready();
});

afterAll(() => app.close());

function expectProblem(res: { headers: Record<string, unknown>; json: () => unknown }, status: number, code: string) {
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = Problem.parse(res.json());
  expect(body.status).toBe(status);
  expect(body.code).toBe(code);
  expect(body.requestId).toBe(res.headers['x-request-id']);
  return body;
}

describe('problem+json answers', () => {
  it('answers an unknown route with a 404 problem', async () => {
    const res = await app.inject({ url: '/nowhere?x=1' });
    expect(res.statusCode).toBe(404);
    const body = expectProblem(res, 404, 'not_found');
    expect(body.detail).toBe('No route for GET /nowhere.');
  });

  it('answers a thrown bug with a 500 that reveals nothing internal', async () => {
    const res = await app.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    const body = expectProblem(res, 500, 'internal');
    expect(res.body).not.toMatch(/secret_table|\/srv|db\.ts|stack/);
    expect(body.title).toBe('Internal server error');
  });

  it('answers an AppError with its code, status and detail', async () => {
    const res = await app.inject({ url: '/teapot' });
    const body = expectProblem(res, 402, 'quota_exceeded');
    expect(body.detail).toContain('monthly quota');
    expect(body.type).toMatch(/quota-exceeded$/);
  });

  it('answers a schema violation with validation_failed and one entry per field', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo/not-a-uuid', payload: { name: '' } });
    const body = expectProblem(res, 400, 'validation_failed');
    expect(body.errors?.length).toBeGreaterThan(0);
    expect(body.errors?.[0]?.path).toMatch(/^params/);
  });

  it('answers malformed JSON with validation_failed', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/echo/4b0f7a6e-3c6a-4a8e-9d5e-0a3b1f2c3d4e',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expectProblem(res, 400, 'validation_failed');
  });

  it('keeps a sane caller-supplied request id and replaces an unsafe one', async () => {
    const kept = await app.inject({ url: '/nowhere', headers: { 'x-request-id': 'trace-abc.123' } });
    expect(kept.headers['x-request-id']).toBe('trace-abc.123');
    const replaced = await app.inject({ url: '/nowhere', headers: { 'x-request-id': 'bad id\n<script>' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('health', () => {
  it('is live', async () => {
    const res = await app.inject({ url: '/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('is ready when every check passes, and 503 naming the failed check otherwise', async () => {
    const ready = await app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ok', failed: [] });

    storageUp = false;
    try {
      const down = await app.inject({ url: '/health/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ status: 'unavailable', failed: ['storage'], checks: { db: { ok: true } } });
      expect(down.body).not.toContain('10.0.0.1');
    } finally {
      storageUp = true;
    }
  });
});

/** The value of one Prometheus sample, whatever order its labels are printed in. */
function sample(body: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = body.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((pair) => l.includes(pair)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('metrics', () => {
  it('counts and times requests by route pattern and status, beside process metrics', async () => {
    const teapot = { method: 'GET', route: '/teapot', status: '402', service: 'test' };
    const echo = { method: 'POST', route: '/echo/:id', status: '200', service: 'test' };
    const before = (await app.inject({ url: '/metrics' })).body;
    await app.inject({ url: '/teapot' });
    await app.inject({ url: '/teapot' });
    await app.inject({ method: 'POST', url: '/echo/4b0f7a6e-3c6a-4a8e-9d5e-0a3b1f2c3d4e', payload: { name: 'x' } });
    const res = await app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(sample(res.body, 'http_requests_total', teapot) - sample(before, 'http_requests_total', teapot)).toBe(2);
    expect(sample(res.body, 'http_requests_total', echo) - sample(before, 'http_requests_total', echo)).toBe(1);
    expect(sample(res.body, 'http_request_duration_seconds_count', teapot)).toBe(
      sample(res.body, 'http_requests_total', teapot),
    );
    expect(res.body).not.toContain('4b0f7a6e');
    expect(res.body).toContain('process_resident_memory_bytes');
  });
});
