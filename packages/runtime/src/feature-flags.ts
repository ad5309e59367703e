import { FEATURE_FLAGS, type FeatureFlagKey } from '@renamer/contracts';
import type { FeatureFlagRepository } from '@renamer/db';
import type { Redis } from 'ioredis';
import type { Logger } from './logger';

/** How long a service trusts what it read; a change announced on Redis is seen at once. */
export const FEATURE_FLAG_CACHE_MS = 2_000;

export interface FeatureFlags {
  isEnabled(key: FeatureFlagKey): Promise<boolean>;
  /** Tells every service to read the flags again: call it after changing one. */
  announceChange(): Promise<void>;
  close(): Promise<void>;
}

export interface FeatureFlagOptions {
  repository: Pick<FeatureFlagRepository, 'list'>;
  /** Publishes changes; a duplicate of it listens for them. */
  redis: Redis;
  redisPrefix: string;
  cacheMs?: number;
  logger?: Logger;
}

/**
 * The flags as every service reads them: all of them in one query, kept `cacheMs`, forgotten as soon as a
 * change is announced on Redis (so a change reaches every service within the cache time even when that
 * announcement is lost). A flag absent from the table has its default. While the database cannot be read,
 * the last values read stand (the defaults before any).
 */
export function createFeatureFlags(options: FeatureFlagOptions): FeatureFlags {
  const cacheMs = options.cacheMs ?? FEATURE_FLAG_CACHE_MS;
  const channel = `${options.redisPrefix}feature-flags`;
  let known: { values: Map<string, boolean>; readAt: number } | undefined;
  let reading: Promise<Map<string, boolean>> | undefined;
  // Bumped by each announced change, so a read that started before it is not kept as fresh.
  let generation = 0;

  const read = () => {
    const startedIn = generation;
    reading ??= options.repository
      .list()
      .then((rows) => {
        const values = new Map(rows.map((row) => [row.key, row.enabled]));
        if (startedIn === generation) known = { values, readAt: Date.now() };
        return values;
      })
      .catch((err: unknown) => {
        options.logger?.warn({ err }, 'feature flags not read; the last values read stand');
        return known?.values ?? new Map<string, boolean>();
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };

  // Opened on the first read, so that building a service (for its OpenAPI document) connects nothing.
  let subscriber: Redis | undefined;
  const listen = () => {
    subscriber = options.redis.duplicate();
    subscriber.on('message', (from) => {
      if (from !== channel) return;
      generation++;
      known = undefined;
    });
    subscriber.subscribe(channel).catch((err: unknown) => {
      options.logger?.warn({ err }, 'feature flag changes not subscribed; they are seen within the cache time');
    });
  };

  return {
    async isEnabled(key) {
      if (!subscriber) listen();
      const values = known && Date.now() - known.readAt < cacheMs ? known.values : await read();
      return values.get(key) ?? FEATURE_FLAGS[key].default;
    },
    async announceChange() {
      await options.redis.publish(channel, 'changed');
    },
    async close() {
      subscriber?.disconnect();
    },
  };
}
