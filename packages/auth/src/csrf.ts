import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyCsrfProtectionOptions } from '@fastify/csrf-protection';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The cookie that holds the CSRF secret (signed), shared by every service on the host. */
export const CSRF_COOKIE = '_csrf';
const CSRF_HEADER = 'x-csrf-token';

/**
 * `@fastify/csrf-protection` as every service sets it up, so that a token the API hands out works on the
 * admin API: the secret in a signed cookie, the token in the `x-csrf-token` header.
 */
export function csrfOptions(cookieOptions: CookieSerializeOptions): FastifyCsrfProtectionOptions {
  return {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_COOKIE,
    cookieOpts: { ...cookieOptions, signed: true },
    getToken: (request) => {
      const token = request.headers[CSRF_HEADER];
      return typeof token === 'string' ? token : undefined;
    },
  };
}

/** A CSRF token (sets the secret cookie on first use). */
export const mintCsrfToken = (_request: FastifyRequest, reply: FastifyReply) => reply.generateCsrf();
