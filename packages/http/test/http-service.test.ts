import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { AppError, Problem } from '@renamer/contracts';
import { createLogger } from '@renamer/runtime';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpService } from '../src';

let app: FastifyInstance;
let baseUrl: string;
let storageUp = true;

beforeAll(async () => {
  app = createHttpService({
    service: 'test',
    logger: createLogger('test', process.env.LOG_LEVEL!),
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
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
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

/** Writes `request` on a raw connection and reads the whole answer (the server closes the connection). */
function rawExchange(request: string, onConnected?: (socket: ReturnType<typeof connect>) => void) {
  const { port } = new URL(baseUrl);
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(request);
      onConnected?.(socket);
    });
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      raw += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

function expectRawProblem(answer: Awaited<ReturnType<typeof rawExchange>>, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  const body = Problem.parse(JSON.parse(answer.body));
  expect(body).toMatchObject({ status, code });
  expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.headers['x-request-id']).toBe(body.requestId);
}

describe('errors raised before a route runs', () => {
  it('answers a malformed percent-encoding in the path with a 400 problem carrying the request id', async () => {
    const res = await fetch(`${baseUrl}/echo/%E0%A4%A`, { headers: { 'x-request-id': 'bad-url-1' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Problem.parse(await res.json())).toMatchObject({ code: 'validation_failed', requestId: 'bad-url-1' });
    expect(res.headers.get('x-request-id')).toBe('bad-url-1');
  });

  it('answers an over-long path parameter with a 414 problem', async () => {
    const res = await fetch(`${baseUrl}/echo/${'a'.repeat(5000)}`, { method: 'POST' });
    expect(res.status).toBe(414);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = Problem.parse(await res.json());
    expect(body).toMatchObject({ status: 414, code: 'uri_too_long' });
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('answers a path with an over-long segment with a 414 problem whatever the method, where no route takes it', async () => {
    // POST /echo/:id is the router's own 414; the others reach no route of their method.
    for (const [method, path] of [
      ['GET', `/echo/${'a'.repeat(5000)}`],
      ['DELETE', `/echo/${'a'.repeat(5000)}`],
      ['PATCH', `/nowhere/${'%61'.repeat(4097)}`],
    ] as const) {
      const res = await app.inject({ method, url: path });
      expect({ method, status: res.statusCode }).toEqual({ method, status: 414 });
      expect(expectProblem(res, 414, 'uri_too_long').detail).toBe(
        'A segment of the path is longer than 4096 characters.',
      );
    }
    // A segment that is over the limit only while percent-encoded is no longer than a parameter may be.
    expect((await app.inject({ url: `/nowhere/${'%61'.repeat(4096)}` })).statusCode).toBe(404);
  });

  it('answers oversized headers with a 431 problem over the raw connection', async () => {
    const answer = await rawExchange(`GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectRawProblem(answer, 431, 'headers_too_large');
  });

  it('answers a request that is not HTTP with a 400 problem', async () => {
    const answer = await rawExchange('HELLO THERE\r\n\r\n');
    expectRawProblem(answer, 400, 'validation_failed');
  });

  it('answers a client too slow to send its headers with a 408 problem', async () => {
    // What Node does when `headersTimeout` passes, without waiting for its connection checks.
    app.server.once('connection', (socket) => {
      setTimeout(
        () =>
          app.server.emit(
            'clientError',
            Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
            socket,
          ),
        50,
      );
    });
    const answer = await rawExchange('GET /health/live HTTP/1.1\r\nHost: x\r\n');
    expectRawProblem(answer, 408, 'request_timeout');
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

describe('request logging', () => {
  it('writes one line per request at info, when it completes, with the method, URL and status', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logged = createHttpService({ service: 'logged', logger: pino({ level: 'info' }, sink), healthChecks: {} });
    logged.get('/ok', async () => ({ ok: true }));
    const res = await logged.inject({ url: '/ok?x=1' });
    await logged.close();

    const ofRequest = lines.filter((line) => line.requestId === res.headers['x-request-id']);
    expect(ofRequest).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        req: expect.objectContaining({ method: 'GET', url: '/ok?x=1' }),
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
  });
});

describe('security headers', () => {
  it("sets helmet's defaults on every answer when asked, and none otherwise", async () => {
    const build = (securityHeaders?: { https: boolean }) =>
      createHttpService({
        service: 'headers',
        logger: createLogger('test', process.env.LOG_LEVEL!),
        healthChecks: {},
        ...(securityHeaders ? { securityHeaders } : {}),
      });
    const [withHeaders, without] = [build({ https: true }), build()];
    const [answered, missing, plain] = await Promise.all([
      withHeaders.inject({ url: '/health/live' }),
      withHeaders.inject({ url: '/nowhere' }),
      without.inject({ url: '/health/live' }),
    ]);
    await Promise.all([withHeaders.close(), without.close()]);
    for (const res of [answered, missing]) {
      expect(res.headers).toMatchObject({
        'content-security-policy': expect.stringContaining("default-src 'self'"),
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
      });
    }
    expect(plain.headers['content-security-policy']).toBeUndefined();
  });
});
