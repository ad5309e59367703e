import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import jwt from '@fastify/jwt';
import type { ReadAlongside, ReadAlongsideResult } from '@renamer/db';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { type CredentialDeps, createCredentialResolver, SESSION_COOKIE, type SessionClaims } from './credentials';
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
     * A read of the caller's that the credential check makes in the same statement (`ReadAlongside`), from
     * the request as it arrives; undefined when its arguments are not valid (the route's validation answers).
     */
    readAlongsideCredentials?: (request: FastifyRequest) => ReadAlongside | undefined;
  }
  interface FastifyRequest {
    /** What `readAlongsideCredentials` read, when the route asks for it and the credentials hold. */
    readAlongside: ReadAlongsideResult | null;
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
  app.decorateRequest('readAlongside', null);
  // Resolved for every request that presents credentials, so per-user rate limits can key on the user
  // and a CSRF token can be bound to the session on a public route.
  app.addHook('onRequest', async (request) => {
    const result = await resolveCredentials(request, request.routeOptions.config.readAlongsideCredentials?.(request));
    if (!result) return;
    if ('principal' in result) {
      request.principal = result.principal;
      request.readAlongside = result.alongside ?? null;
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
