import { CredentialsEnded } from '@renamer/contracts';
import { type CallLog, parseJsonOrUndefined } from '@renamer/runtime';
import type { Redis } from 'ioredis';

/** Pub/sub channels ignore Redis database numbers, so the name carries the environment's prefix. */
const channelOf = (redisPrefix: string) => `${redisPrefix}credentials-ended`;

export type AnnounceCredentialsEnded = (ended: CredentialsEnded) => Promise<void>;

/**
 * Best effort: an announcement that cannot be sent is logged, and the sockets' periodic credential check
 * closes them within its interval anyway.
 */
export function createCredentialsEndedPublisher(
  redis: Redis,
  redisPrefix: string,
  log: CallLog,
): AnnounceCredentialsEnded {
  const channel = channelOf(redisPrefix);
  return async (ended) => {
    await redis
      .publish(channel, JSON.stringify(CredentialsEnded.parse(ended)))
      .catch((err) => log.warn({ err, ended }, 'ended credentials not announced; sockets close at their next check'));
  };
}

/** `subscriber` is a connection in subscriber mode (it may carry other channels too). */
export async function subscribeToCredentialsEnded(
  subscriber: Redis,
  redisPrefix: string,
  onEnded: (ended: CredentialsEnded) => void,
): Promise<void> {
  const channel = channelOf(redisPrefix);
  subscriber.on('message', (from: string, raw: string) => {
    if (from !== channel) return;
    const parsed = CredentialsEnded.safeParse(parseJsonOrUndefined(raw));
    if (parsed.success) onEnded(parsed.data);
  });
  await subscriber.subscribe(channel);
}
