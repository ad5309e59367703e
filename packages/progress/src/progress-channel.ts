import { ProgressEvent } from '@renamer/contracts';
import { parseJsonOrUndefined } from '@renamer/runtime';
import type { Redis } from 'ioredis';

/** Pub/sub channels ignore Redis database numbers, so the name carries the environment's prefix. */
export const progressChannel = (redisPrefix: string) => `${redisPrefix}progress`;

export type PublishProgress = (event: ProgressEvent) => Promise<void>;

export function createProgressPublisher(redis: Redis, redisPrefix: string): PublishProgress {
  const channel = progressChannel(redisPrefix);
  return async (event) => {
    await redis.publish(channel, JSON.stringify(ProgressEvent.parse(event)));
  };
}

/**
 * Delivers every valid progress event published by any service. `subscriber` must be a connection of
 * its own: a Redis connection in subscriber mode can do nothing else.
 */
export async function subscribeToProgress(
  subscriber: Redis,
  redisPrefix: string,
  onEvent: (event: ProgressEvent) => void,
  onInvalid: (raw: string) => void = () => {},
): Promise<() => Promise<void>> {
  const channel = progressChannel(redisPrefix);
  const listener = (from: string, raw: string) => {
    if (from !== channel) return;
    const parsed = ProgressEvent.safeParse(parseJsonOrUndefined(raw));
    if (parsed.success) onEvent(parsed.data);
    else onInvalid(raw);
  };
  subscriber.on('message', listener);
  await subscriber.subscribe(channel);
  return async () => {
    subscriber.off('message', listener);
    await subscriber.unsubscribe(channel);
  };
}
