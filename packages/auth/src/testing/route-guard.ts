import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

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

/** Calls `route` (its params random ids) with a body and a query that fail validation, as `headers` say. */
async function callMalformed(baseUrl: string, route: string, headers: Record<string, string> = {}) {
  const [method, path] = route.split(' ') as [string, string];
  const url = `${baseUrl}${path.replace(/:\w+/g, randomUUID())}?limit=0`;
  const withBody = method !== 'GET' && method !== 'DELETE';
  const response = await fetch(url, {
    method,
    redirect: 'manual',
    headers: { ...headers, ...(withBody ? { 'content-type': 'application/json' } : {}) },
    body: withBody ? '{"malformed":' : undefined,
  });
  const body = (await response.text()) || '{}';
  return {
    response,
    problem: response.headers.get('content-type')?.startsWith('application/problem+json') ? JSON.parse(body) : {},
  };
}

/**
 * Calls `route` without credentials and says whether the guard refused it: 401 `unauthenticated` before
 * anything else about the request was looked at.
 */
async function refusedWithoutCredentials(baseUrl: string, route: string) {
  const { response, problem } = await callMalformed(baseUrl, route);
  if (response.status !== 401) return false;
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(problem.requestId).toBe(response.headers.get('x-request-id'));
  return problem.code === 'unauthenticated' && problem.detail === 'Sign in or send an API key.';
}

/** The routes of `app` (listening at `baseUrl`) and those of them that answer without credentials. */
export async function openRoutes(app: FastifyInstance, baseUrl: string) {
  const routes = registeredRoutes(app);
  const refused = await Promise.all(routes.map((route) => refusedWithoutCredentials(baseUrl, route)));
  return { routes, open: routes.filter((_, index) => !refused[index]) };
}

/**
 * The routes of `app` that refuse a caller (their credentials in `headers`) with 403 `forbidden` before
 * looking at the request: those a role guards.
 */
export async function forbiddenRoutes(app: FastifyInstance, baseUrl: string, headers: Record<string, string>) {
  const routes = registeredRoutes(app);
  const answers = await Promise.all(routes.map((route) => callMalformed(baseUrl, route, headers)));
  return routes.filter(
    (_, index) => answers[index]!.response.status === 403 && answers[index]!.problem.code === 'forbidden',
  );
}
