import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from './logger';

/**
 * A Redis connection as BullMQ needs it (`maxRetriesPerRequest: null`); `lazyConnect` so that a
 * service whose Redis is down still boots and says so on /health/ready instead of crashing.
 */
export function createRedis(url: string, options: RedisOptions = {}, logger?: Logger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true, enableOfflineQueue: true, ...options });
  // ioredis retries by itself; log the first error of each outage rather than every reconnect attempt.
  let down = false;
  redis.on('error', (err) => {
    if (!down) logger?.warn({ err }, 'redis connection error; retrying');
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger?.info('redis connection restored');
    down = false;
  });
  return redis;
}

export async function pingRedis(redis: Redis): Promise<void> {
  if (redis.status === 'wait') await redis.connect();
  const answer = await redis.ping();
  if (answer !== 'PONG') throw new Error(`unexpected PING answer: ${answer}`);
}
