import rateLimit from '@fastify/rate-limit';
import { AppError } from '@renamer/contracts';
import { withErrors } from '@renamer/http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

/** Routes that share a counter of their own, apart from every other route's. */
export interface RateLimitGroup {
  /** Starts the group's counter keys (`<name>:<address>`, `<name>:user:<id>`). */
  name: string;
  /** Fastify route urls, e.g. `/api/image/:imageId/preview`. */
  routes: ReadonlySet<string>;
  perMinute: number;
  /**
   * `address`: per client address, whoever calls (routes used before signing in). `caller`: per signed-in
   * user; a request without valid credentials counts on its address's ordinary counter, so a larger budget
   * never makes guessing API keys faster.
   */
  per: 'address' | 'caller';
}

export interface RateLimitOptions {
  redis: Redis;
  redisPrefix: string;
  /** Whose counters these are: each service counts its own requests. */
  service: string;
  /** Requests per minute per signed-in user, or per client address for callers without credentials. */
  perMinute: number;
  /** Routes counted apart (the API's sign-in routes per address, its previews per user). */
  groups?: readonly RateLimitGroup[];
}

/**
 * Counters live in Redis, so a limit holds across instances. Signed-in callers are counted per user,
 * others per client address, and each group's routes on a counter of their own with their own budget.
 * (One global limiter with derived keys and a per-request `max`, because route-level limits in Redis count
 * each route apart.) When Redis is down requests pass: readiness reports the outage, and refusing every
 * request would turn it into a full one. Registered after `authentication`, whose hook resolves the caller first.
 */
/** What probes and scrapers call (@renamer/http registers them on every service); never counted. */
const UNLIMITED_ROUTES = new Set(['/health/live', '/health/ready', '/metrics']);

async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions) {
  const groupByRoute = new Map((options.groups ?? []).flatMap((group) => [...group.routes].map((url) => [url, group])));
  const groupOf = (request: FastifyRequest) => {
    const group = groupByRoute.get(request.routeOptions.url ?? '');
    return group && (group.per === 'address' || request.principal) ? group : undefined;
  };
  await app.register(rateLimit, {
    global: false,
    timeWindow: '1 minute',
    redis: options.redis,
    nameSpace: `${options.redisPrefix}rate-limit:${options.service}:`,
    skipOnError: true,
    keyGenerator: (request) => {
      const group = groupOf(request);
      const caller = request.principal ? `user:${request.principal.user.id}` : `ip:${request.ip}`;
      if (!group) return caller;
      return group.per === 'address' ? `${group.name}:${request.ip}` : `${group.name}:${caller}`;
    },
    max: (request) => groupOf(request)?.perMinute ?? options.perMinute,
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
