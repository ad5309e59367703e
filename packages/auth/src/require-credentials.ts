import { AppError, type ErrorCode } from '@renamer/contracts';
import { withErrors } from '@renamer/http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { SIGNED_IN_SECURITY } from './openapi-security';
import type { Principal } from './principal';

export interface RequireCredentialsOptions {
  /** Registers the routes that need credentials; they live inside this plugin's scope, behind its hook. */
  routes: (scope: FastifyInstance) => Promise<void>;
  /** Only callers with this role pass; others get 403 `forbidden`. */
  role?: Principal['user']['role'];
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What the guard can answer a route's callers: `forbidden` for the wrong role, or a change without its CSRF token. */
function guardErrors(methods: readonly string[], role: string | undefined): ErrorCode[] {
  const forbidden = role !== undefined || methods.some((method) => STATE_CHANGING.has(method));
  return ['unauthenticated', 'banned', ...(forbidden ? ['forbidden' as const] : [])];
}

/**
 * The guard of every route but the few public ones (fastify/demo's autohooks): one `onRequest` hook for the
 * whole scope, so a route registered inside cannot forget it, and credentials are checked before the body is
 * parsed or anything validated. 401 without valid credentials, 403 `banned`, 403 for the wrong role, and
 * CSRF for cookie-authenticated changes (API-key requests are exempt).
 */
async function requireCredentialsPlugin(scope: FastifyInstance, { routes, role }: RequireCredentialsOptions) {
  scope.addHook('onRoute', (route) => {
    route.schema = withErrors(
      { ...route.schema, security: route.schema?.security ?? SIGNED_IN_SECURITY },
      guardErrors([route.method].flat(), role),
    );
  });
  // Callback style, so that csrfProtection can answer its own 403 through the error handler.
  scope.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.credentialFailure === 'banned') return done(new AppError('banned', 'This account has been banned.'));
    if (!request.principal) return done(new AppError('unauthenticated', 'Sign in or send an API key.'));
    if (role && request.principal.user.role !== role) {
      return done(new AppError('forbidden', `This needs the ${role} role.`));
    }
    if (request.principal.via === 'session' && STATE_CHANGING.has(request.method)) {
      return scope.csrfProtection(request, reply, done);
    }
    done();
  });
  await routes(scope);
}

export const requireCredentials = fp(requireCredentialsPlugin, { dependencies: ['renamer-auth'], encapsulate: true });
