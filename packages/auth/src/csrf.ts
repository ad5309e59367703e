import { createHmac } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyCsrfProtectionOptions } from '@fastify/csrf-protection';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The cookie that holds the CSRF secret (signed), shared by every service on the host. */
export const CSRF_COOKIE = '_csrf';
const CSRF_HEADER = 'x-csrf-token';

/** What a token is bound to: the session it was minted for; a visitor who is not signed in has none. */
const boundTo = (request: FastifyRequest) => (request.principal?.via === 'session' ? request.principal.sessionId : '');

/**
 * `@fastify/csrf-protection` as every service sets it up, so that a token the API hands out works on the
 * admin API: the secret in a signed cookie, and the token bound to the session by an HMAC keyed from the
 * same secret. A cookie and token planted by someone else (minted for another session, or for none) fail.
 */
export function csrfOptions(secret: string, cookieOptions: CookieSerializeOptions): FastifyCsrfProtectionOptions {
  return {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_COOKIE,
    cookieOpts: { ...cookieOptions, signed: true },
    getToken: (request) => {
      const token = request.headers[CSRF_HEADER];
      return typeof token === 'string' ? token : undefined;
    },
    getUserInfo: boundTo,
    csrfOpts: { userInfo: true, hmacKey: createHmac('sha256', secret).update('renamer csrf tokens').digest() },
  };
}

/** A token for the caller's session (sets the secret cookie on first use). */
export const mintCsrfToken = (request: FastifyRequest, reply: FastifyReply) =>
  reply.generateCsrf({ userInfo: boundTo(request) });
