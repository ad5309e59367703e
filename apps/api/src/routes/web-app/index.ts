import { access } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface WebAppOptions {
  /** The web app's build (`apps/web/dist`): index.html and hashed files under assets/. */
  root: string;
}

/** Vite names every built asset by its content: a changed file is a new URL, so the old one never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Whether the build is there to serve: the API is ready only once `/` serves the app. */
export const webAppBuilt = (root: string) => () => access(join(root, 'index.html'));

/**
 * The single-page app from the API's own origin, so that cookies, CSRF, the sign-in callback and WebSocket
 * origins just work. Files are registered one route each (never a wildcard that could answer for `/api`);
 * any other GET outside `/api` is a page of the app (its index.html); a GET under `/api` that no route takes is
 * answered as any other method's would be (a 404 problem, or 414 for an over-long segment), never with the page.
 * Outside the rate limit, as every path outside `/api` is.
 */
export async function webAppRoutes(app: FastifyInstance, { root }: WebAppOptions) {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    schemaHide: true,
    setHeaders(response, path) {
      response.header('cache-control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
    },
  });
  const page = {
    schema: { hide: true },
    logLevel: 'warn' as const,
  };
  const index = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html');
  app.get('/', page, (_request, reply) => index(reply));
  app.get('/*', page, (request, reply) => {
    // Under /api the answer is the one a path no route takes gets (registerProblemHandlers): a 404 problem, or a 414
    // when a segment is over the parameter limit (the router's own 414 comes only when no route, this one included,
    // matches).
    const path = request.url.split('?')[0]!;
    if (path === '/api' || path.startsWith('/api/')) return reply.callNotFound();
    return index(reply);
  });
}
