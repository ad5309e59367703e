import { type EmbeddedKind, findPostgres, type PostgresServer } from './postgres';
import { findRedis, type RedisServer } from './redis';
import type { Teardown } from './teardown';

/**
 * Finds (or starts) PostgreSQL and Redis side by side. Both searches finish before a failure is thrown, so whatever
 * one of them started is already in `teardown`.
 */
export async function findDependencies(
  kind: EmbeddedKind,
  teardown: Teardown,
): Promise<{ postgres: PostgresServer; redis: RedisServer }> {
  const [postgres, redis] = await Promise.allSettled([findPostgres(kind, teardown), findRedis(teardown)]);
  if (postgres.status === 'rejected') throw postgres.reason;
  if (redis.status === 'rejected') throw redis.reason;
  return { postgres: postgres.value, redis: redis.value };
}
