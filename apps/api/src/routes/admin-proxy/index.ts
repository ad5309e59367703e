import proxy from '@fastify/http-proxy';
import { AppError } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';

export interface AdminProxyOptions {
  /** The admin API's address (`ADMIN_API_URL`), e.g. http://127.0.0.1:3001. */
  upstream: string;
}

/**
 * `/api/admin/*` passed to the admin API unchanged, cookies and CSRF header included, so that the web app's
 * admin dashboard reaches it from the API's own origin. The admin API checks credentials and the admin role
 * itself; an admin API that does not answer is 503 `unavailable`. In production a reverse proxy in front of
 * both services does the same (docs/operations.md) and this route can be left unconfigured.
 */
export async function adminProxyRoutes(app: FastifyInstance, { upstream }: AdminProxyOptions) {
  await app.register(proxy, {
    upstream,
    prefix: '/api/admin',
    rewritePrefix: '/api/admin',
    replyOptions: {
      onError: (reply) =>
        reply.send(
          new AppError('unavailable', 'The admin API is not answering; try again shortly.', undefined, {
            'retry-after': '5',
          }),
        ),
    },
  });
}
