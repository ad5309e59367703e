import { randomUUID } from 'node:crypto';
import { AppError } from '@renamer/contracts';
import type { Logger } from '@renamer/runtime';
import type { Redis } from 'ioredis';

export interface UserSocketLimitOptions {
  redis: Pick<Redis, 'eval' | 'pipeline' | 'zrem'>;
  redisPrefix: string;
  maxPerUser: number;
  /** How long a socket counts after its last renewal: a crashed instance's sockets stop counting then. */
  leaseMs: number;
  log: Pick<Logger, 'warn'>;
}

export interface OpenSocket {
  userId: string;
  socketId: string;
}

/** Redis's clock, in milliseconds, so that every instance scores the leases alike. */
const NOW = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

/** KEYS[1]: the user's sockets, scored by the end of their lease. ARGV: socket id, cap, lease. 1 when admitted. */
const ADMIT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** KEYS[1]: the user's sockets. ARGV: lease, then the ids of the user's sockets still open on this instance. */
const RENEW = `${NOW}
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])`;

/**
 * How many WebSockets each user holds, across API instances: a sorted set per user of socket ids scored by
 * the end of their lease. Admission drops expired members, counts and adds in one script; each instance
 * renews the leases of its open sockets at every heartbeat and removes a socket's member when it closes,
 * so the members of a crashed instance expire by themselves. While Redis is down sockets are admitted
 * uncounted, as the request rate limiter lets requests pass then.
 */
export function createUserSocketLimit(options: UserSocketLimitOptions) {
  const { redis, maxPerUser, leaseMs, log } = options;
  const keyOf = (userId: string) => `${options.redisPrefix}ws-sockets:${userId}`;

  return {
    /** A new socket's id, counted against the user's cap; `rate_limited` when the user holds the most already. */
    async admit(userId: string): Promise<string> {
      const socketId = randomUUID();
      const admitted = await redis.eval(ADMIT, 1, keyOf(userId), socketId, maxPerUser, leaseMs).catch((err) => {
        log.warn({ err, userId }, 'websocket not counted: redis unavailable');
        return 1;
      });
      if (admitted !== 1) {
        throw new AppError(
          'rate_limited',
          `One user may hold at most ${maxPerUser} WebSocket connections; close one before opening another.`,
          undefined,
          { 'retry-after': String(Math.ceil(leaseMs / 1000)) },
        );
      }
      return socketId;
    },

    /** Extends the lease of every socket still open on this instance. */
    async renew(sockets: Iterable<OpenSocket>): Promise<void> {
      const byUser = new Map<string, string[]>();
      for (const { userId, socketId } of sockets) byUser.set(userId, [...(byUser.get(userId) ?? []), socketId]);
      if (byUser.size === 0) return;
      const pipeline = redis.pipeline();
      for (const [userId, socketIds] of byUser) pipeline.eval(RENEW, 1, keyOf(userId), leaseMs, ...socketIds);
      const failed = await pipeline.exec().then(
        (results) => results?.find(([err]) => err)?.[0],
        (err: unknown) => err,
      );
      if (failed) log.warn({ err: failed }, 'websocket leases not renewed');
    },

    async release({ userId, socketId }: OpenSocket): Promise<void> {
      await redis.zrem(keyOf(userId), socketId).catch((err) => log.warn({ err, userId }, 'websocket not uncounted'));
    },
  };
}

export type UserSocketLimit = ReturnType<typeof createUserSocketLimit>;
