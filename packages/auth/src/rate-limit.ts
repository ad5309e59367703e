import rateLimit from '@fastify/rate-limit';
import { AppError } from '@renamer/contracts';
import { withErrors } from '@renamer/http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

export interface RateLimitOptions {
  redis: Redis;
  redisPrefix: string;
  /** Whose counters these are: each service counts its own requests. */
  service: string;
  /** Requests per minute per signed-in user, or per client address for callers without credentials. */
  perMinute: number;
  /** Routes that share one stricter counter per client address (the API's sign-in routes). */
  signIn?: { routes: ReadonlySet<string>; perMinute: number };
}

/**
 * Counters live in Redis, so a limit holds across instances. Signed-in callers are counted per user,
 * others per client address, and the sign-in routes per address on a stricter counter of their own.
 * (One global limiter with derived keys, because route-level limits in Redis count each route apart.)
 * When Redis is down requests pass: readiness reports the outage, and refusing every request would
 * turn it into a full one. Registered after `authentication`, whose hook resolves the caller first.
 */
/** What probes and scrapers call (@renamer/http registers them on every service); never counted. */
const UNLIMITED_ROUTES = new Set(['/health/live', '/health/ready', '/metrics']);

async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions) {
  const { signIn } = options;
  const isSignInRoute = (request: FastifyRequest) => signIn?.routes.has(request.routeOptions.url ?? '') ?? false;
  await app.register(rateLimit, {
    global: false,
    timeWindow: '1 minute',
    redis: options.redis,
    nameSpace: `${options.redisPrefix}rate-limit:${options.service}:`,
    skipOnError: true,
    keyGenerator: (request) => {
      if (isSignInRoute(request)) return `sign-in:${request.ip}`;
      return request.principal ? `user:${request.principal.user.id}` : `ip:${request.ip}`;
    },
    max: (request) => (signIn && isSignInRoute(request) ? signIn.perMinute : options.perMinute),
    // The web app's files and pages (everything outside /api) are not the API's to count.
    allowList: (request) => UNLIMITED_ROUTES.has(request.routeOptions.url ?? '') || !request.url.startsWith('/api'),
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many requests: at most ${context.max} in ${context.after}. Try again later.`),
  });
  app.addHook('onRoute', (route) => {
    route.schema = withErrors(route.schema, ['rate_limited']);
  });
  // A root hook, after the credentials are resolved and before any route's guard: a flood of requests with
  // bad or missing credentials is counted (per address) like any other.
  app.addHook('onRequest', app.rateLimit());
}

export const rateLimits = fp(rateLimitPlugin, { name: 'renamer-rate-limit', dependencies: ['renamer-auth'] });
