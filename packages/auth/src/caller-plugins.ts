import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { type AuthPluginOptions, authentication, secureCookies } from './auth-plugin';
import { type RateLimitOptions, rateLimits } from './rate-limit';

export interface CallerPluginsOptions {
  env: { SESSION_SECRET: string; NODE_ENV: string; REDIS_PREFIX: string; RATE_LIMIT_PER_MINUTE: number };
  redis: Redis;
  repositories: Pick<AuthPluginOptions, 'sessions' | 'apiKeys'>;
  /** Whose rate-limit counters these are. */
  service: string;
  /** Routes counted apart from the others, each group on a counter of its own. */
  rateLimitGroups?: RateLimitOptions['groups'];
}

/**
 * Who is calling, then how often: the credentials resolved for every request, then the rate limit keyed on
 * them. Every HTTP app registers both, in this order, before its routes.
 */
export async function registerCallerPlugins(app: FastifyInstance, options: CallerPluginsOptions): Promise<void> {
  const { env, rateLimitGroups } = options;
  await app.register(authentication, {
    secret: env.SESSION_SECRET,
    secureCookies: secureCookies(env),
    sessions: options.repositories.sessions,
    apiKeys: options.repositories.apiKeys,
  });
  await app.register(rateLimits, {
    redis: options.redis,
    redisPrefix: env.REDIS_PREFIX,
    service: options.service,
    perMinute: env.RATE_LIMIT_PER_MINUTE,
    ...(rateLimitGroups && { groups: rateLimitGroups }),
  });
}
