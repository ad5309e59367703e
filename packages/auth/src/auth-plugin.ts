import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  type CredentialDeps,
  type CredentialRead,
  createCredentialResolver,
  SESSION_COOKIE,
  type SessionClaims,
} from './credentials';
import { csrfOptions } from './csrf';

export interface AuthPluginOptions {
  secret: string;
  /** Session cookies are Secure everywhere but in development (plain http on localhost). */
  secureCookies: boolean;
  sessions: CredentialDeps['sessions'];
  apiKeys: CredentialDeps['apiKeys'];
}

/** Cookies are Secure everywhere but in development (plain http on localhost). */
export const secureCookies = (env: { NODE_ENV: string }) => env.NODE_ENV !== 'development';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A read that the credential check makes in its own statement (`CredentialRead`), from the request as it
     * arrives; undefined when its arguments are not valid (the route's validation answers). Set through
     * `readWithCredentials`.
     */
    readWithCredentials?: (request: FastifyRequest) => CredentialRead<unknown> | undefined;
  }
  interface FastifyRequest {
    /** What the route's `readWithCredentials` read, when it asked and the credentials held. */
    credentialRead: { value: unknown } | null;
  }
  interface FastifyInstance {
    issueSession: (reply: FastifyReply, claims: SessionClaims, ttlSeconds: number) => Promise<void>;
    clearSession: (reply: FastifyReply) => void;
  }
}

/**
 * Cookies, session tokens and CSRF for the whole service, and the caller (`request.principal`) resolved from
 * whatever credentials a request presents. Refusing requests is `requireCredentials`'s job.
 */
async function authPlugin(app: FastifyInstance, options: AuthPluginOptions) {
  const cookieOptions = {
    httpOnly: true,
    secure: options.secureCookies,
    sameSite: 'lax' as const,
    path: '/',
  };
  await app.register(cookie, { secret: options.secret });
  await app.register(jwt, { secret: options.secret });
  await app.register(csrf, csrfOptions(options.secret, cookieOptions));

  const resolveCredentials = createCredentialResolver({
    sessions: options.sessions,
    apiKeys: options.apiKeys,
    verifySessionToken: (token) => app.jwt.verify<SessionClaims>(token),
  });

  app.decorateRequest('principal', null);
  app.decorateRequest('credentialFailure', null);
  app.decorateRequest('credentialRead', null);
  // Resolved for every request that presents credentials, so per-user rate limits can key on the user
  // and a CSRF token can be bound to the session on a public route.
  app.addHook('onRequest', async (request) => {
    const result = await resolveCredentials(request, request.routeOptions.config.readWithCredentials?.(request));
    if (!result) return;
    if ('principal' in result) {
      request.principal = result.principal;
      request.credentialRead = result.read ?? null;
    } else request.credentialFailure = result.failure;
  });

  app.decorate('issueSession', async (reply: FastifyReply, claims: SessionClaims, ttlSeconds: number) => {
    const token = await reply.jwtSign({ sid: claims.sid, sub: claims.sub }, { expiresIn: ttlSeconds });
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: ttlSeconds });
  });

  app.decorate('clearSession', (reply: FastifyReply) => {
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
  });
}

export const authentication = fp(authPlugin, { name: 'renamer-auth' });

/**
 * A route's read made by the statement that checks the caller's credential (`CredentialRead`): `config` goes into
 * the route's options, and `of(request)` is what was read, or undefined when nothing was (the arguments were not
 * valid, or no credentials held: the guard answers those).
 */
export function readWithCredentials<T>(select: (request: FastifyRequest) => CredentialRead<T> | undefined) {
  return {
    config: { readWithCredentials: select },
    of: (request: Pick<FastifyRequest, 'credentialRead'>): T | undefined =>
      request.credentialRead?.value as T | undefined,
  };
}
