import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthStack, startAuthStack } from './support/auth-stack';

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack({ name: 'api-route-guard' });
});
afterAll(() => stack?.close());

/** Every registered route as `METHOD /path/:param`, read from Fastify's route tree (HEAD mirrors GET). */
function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const pathAtDepth: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!node) continue;
    const [, indent = '', segment = '', methods = ''] = node;
    const depth = indent.length / 4;
    const path = (depth > 0 ? pathAtDepth[depth - 1] : '') + segment;
    pathAtDepth[depth] = path;
    for (const method of methods.split(', ')) if (method && method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes.sort();
}

/**
 * Calls `route` without credentials, with a body and a query that fail validation, and says whether the
 * guard refused it: 401 `unauthenticated` before anything else about the request was looked at.
 */
async function refusedWithoutCredentials(baseUrl: string, route: string) {
  const [method, path] = route.split(' ') as [string, string];
  const url = `${baseUrl}${path.replace(/:\w+/g, randomUUID())}?limit=0`;
  const withBody = method !== 'GET' && method !== 'DELETE';
  const response = await fetch(url, {
    method,
    redirect: 'manual',
    headers: withBody ? { 'content-type': 'application/json' } : {},
    body: withBody ? '{"malformed":' : undefined,
  });
  const body = (await response.text()) || '{}';
  if (response.status !== 401) return false;
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(body);
  expect(problem.requestId).toBe(response.headers.get('x-request-id'));
  return problem.code === 'unauthenticated' && problem.detail === 'Sign in or send an API key.';
}

async function openRoutes(app: FastifyInstance, baseUrl: string) {
  const routes = registeredRoutes(app);
  const refused = await Promise.all(routes.map((route) => refusedWithoutCredentials(baseUrl, route)));
  return { routes, open: routes.filter((_, index) => !refused[index]) };
}

describe('credentials by default', () => {
  it('answers every API route without credentials with 401, except the public ones', async () => {
    const { routes, open } = await openRoutes(stack.api, stack.apiUrl);
    expect(routes).toContain('PATCH /api/auth/me');
    // POST /api/payments/webhook joins this list when payments land.
    expect(open).toEqual([
      'GET /api/auth/callback',
      'GET /api/auth/csrf',
      'GET /api/auth/login',
      'GET /api/files/:token',
      'GET /api/openapi.json',
      'GET /health/live',
      'GET /health/ready',
      'GET /metrics',
    ]);
  });

  it('answers every admin API route without credentials with 401, except health and metrics', async () => {
    const { routes, open } = await openRoutes(stack.admin, stack.adminUrl);
    expect(routes).toContain('GET /api/admin/health');
    expect(open).toEqual(['GET /health/live', 'GET /health/ready', 'GET /metrics']);
  });

  it('refuses a WebSocket upgrade without credentials with 401, and closes the connection', async () => {
    const { port } = new URL(stack.apiUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          [
            'GET /api/ws HTTP/1.1',
            'Host: 127.0.0.1',
            'Connection: Upgrade',
            'Upgrade: websocket',
            'Sec-WebSocket-Version: 13',
            `Sec-WebSocket-Key: ${randomUUID().replaceAll('-', '').slice(0, 22)}==`,
            '',
            '',
          ].join('\r\n'),
        ),
      );
      let raw = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        raw += chunk;
      });
      socket.on('close', () => resolve(raw));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('"code":"unauthenticated"');
  }, 5_000);
});
