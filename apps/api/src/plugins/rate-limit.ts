import rateLimit from '@fastify/rate-limit';
import { AppError } from '@renamer/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

export interface RateLimitOptions {
  redis: Redis;
  redisPrefix: string;
  perMinute: number;
  signInPerMinute: number;
}

/** Login, callback and logout share one counter per client address. */
export const SIGN_IN_ROUTES = new Set(['/api/auth/login', '/api/auth/callback', '/api/auth/logout']);

const isSignInRoute = (request: FastifyRequest) => SIGN_IN_ROUTES.has(request.routeOptions.url ?? '');

/**
 * Counters live in Redis, so a limit holds across API instances. Signed-in callers are counted per user,
 * others per client address, and the sign-in routes per address on a stricter counter of their own.
 * (One global limiter with derived keys, because route-level limits in Redis count each route apart.)
 * When Redis is down requests pass: readiness reports the outage, and refusing every request would
 * turn it into a full one.
 */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions) {
  await app.register(rateLimit, {
    global: false,
    timeWindow: '1 minute',
    redis: options.redis,
    nameSpace: `${options.redisPrefix}rate-limit:`,
    skipOnError: true,
    keyGenerator: (request) => {
      if (isSignInRoute(request)) return `sign-in:${request.ip}`;
      return request.principal ? `user:${request.principal.user.id}` : `ip:${request.ip}`;
    },
    max: (_request, key) => (key.startsWith('sign-in:') ? options.signInPerMinute : options.perMinute),
    allowList: (request) => request.url.startsWith('/health/') || request.url === '/metrics',
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many requests: at most ${context.max} in ${context.after}. Try again later.`),
  });
  // A root hook, after the credentials are resolved and before any route's guard: a flood of requests with
  // bad or missing credentials is counted (per address) like any other.
  app.addHook('onRequest', app.rateLimit());
}
