import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import jwt from '@fastify/jwt';
import { AppError } from '@renamer/contracts';
import type { ApiKeyRepository, SessionRepository } from '@renamer/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createCredentialResolver, SESSION_COOKIE, type SessionClaims } from './credentials';
import type { Principal } from './principal';

export interface AuthPluginOptions {
  secret: string;
  /** Session cookies are Secure everywhere but in development (plain http on localhost). */
  secureCookies: boolean;
  sessions: Pick<SessionRepository, 'findActive'>;
  apiKeys: Pick<ApiKeyRepository, 'findActiveByHash' | 'touchLastUsed'>;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 without valid credentials, 403 `banned`; CSRF for cookie-authenticated changes. */
    authenticate: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;
    /** preHandler, after `authenticate`: 403 unless the caller is an admin. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    issueSession: (reply: FastifyReply, claims: SessionClaims, ttlSeconds: number) => Promise<void>;
    clearSession: (reply: FastifyReply) => void;
    /** Whether the credentials `request` came with are still valid now (long-lived connections re-check). */
    credentialsStillValid: (request: FastifyRequest) => Promise<boolean>;
  }
}

/** The caller of a route guarded by `authenticate`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('unauthenticated');
  return request.principal;
}

async function authPlugin(app: FastifyInstance, options: AuthPluginOptions) {
  const cookieOptions = {
    httpOnly: true,
    secure: options.secureCookies,
    sameSite: 'lax' as const,
    path: '/',
  };
  await app.register(cookie, { secret: options.secret });
  await app.register(jwt, { secret: options.secret });
  await app.register(csrf, {
    sessionPlugin: '@fastify/cookie',
    cookieOpts: { ...cookieOptions, signed: true },
    getToken: (request) => request.headers['x-csrf-token'] as string | undefined,
  });

  const resolveCredentials = createCredentialResolver({
    sessions: options.sessions,
    apiKeys: options.apiKeys,
    verifySessionToken: (token) => app.jwt.verify<SessionClaims>(token),
  });

  app.decorateRequest('principal', null);
  app.decorateRequest('credentialFailure', null);
  // Resolved for every request that presents credentials, so per-user rate limits can key on the user.
  app.addHook('onRequest', async (request) => {
    const result = await resolveCredentials(request);
    if (!result) return;
    if ('principal' in result) request.principal = result.principal;
    else request.credentialFailure = result.failure;
  });

  // Callback style, so that csrfProtection can answer its own 403 through the error handler.
  app.decorate('authenticate', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (request.credentialFailure === 'banned') return done(new AppError('banned', 'This account has been banned.'));
    if (!request.principal) return done(new AppError('unauthenticated', 'Sign in or send an API key.'));
    if (request.principal.via === 'session' && STATE_CHANGING.has(request.method)) {
      return app.csrfProtection(request, reply, done);
    }
    done();
  });

  app.decorate('credentialsStillValid', async (request: FastifyRequest) => {
    const result = await resolveCredentials(request);
    return result !== null && 'principal' in result;
  });

  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    if (principalOf(request).user.role !== 'admin') throw new AppError('forbidden', 'This needs the admin role.');
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
