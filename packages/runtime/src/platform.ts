import { checkDb, createDb, type DbClient } from '@renamer/db';
import { createObjectStore, type ObjectStore, type ObjectStoreConfig } from '@renamer/storage';
import { tracingEnabled, withQuerySpans } from '@renamer/telemetry';
import type { Redis } from 'ioredis';
import type { PlatformEnv } from './env';
import type { HealthChecks } from './health-checks';
import type { Logger } from './logger';
import { createRedis, pingRedis } from './redis';

/** What every service stands on: PostgreSQL, Redis and the object store, with their readiness checks. */
export interface Platform {
  db: DbClient;
  redis: Redis;
  store: ObjectStore;
  healthChecks: HealthChecks;
  /** Creates the storage bucket or directory when missing; safe to call again after a failure. */
  initStore(): Promise<void>;
  close(): Promise<void>;
}

export function storageConfigFromEnv(env: PlatformEnv): ObjectStoreConfig {
  if (env.STORAGE_DRIVER === 's3') {
    return {
      driver: 's3',
      endpoint: env.S3_ENDPOINT!,
      publicEndpoint: env.S3_PUBLIC_ENDPOINT,
      region: env.S3_REGION,
      accessKey: env.S3_ACCESS_KEY!,
      secretKey: env.S3_SECRET_KEY!,
      bucket: env.S3_BUCKET,
    };
  }
  return { driver: 'fs', dir: env.STORAGE_DIR, publicUrl: env.PUBLIC_URL, signingSecret: env.SESSION_SECRET };
}

export function createPlatform(env: PlatformEnv, options: { logger?: Logger } = {}): Platform {
  const db = createDb(env.DATABASE_URL, {
    max: env.DATABASE_POOL_SIZE,
    wrapClient: tracingEnabled() ? withQuerySpans : undefined,
  });
  // Fail fast while Redis is down (BullMQ workers get their own connection that waits instead): a
  // request must not hang on a rate-limit counter or a progress event. Commands issued in the same tick (the
  // rate-limit counters of concurrent requests) leave in one write.
  const redis = createRedis(
    env.REDIS_URL,
    { maxRetriesPerRequest: 1, commandTimeout: 2_000, enableAutoPipelining: true },
    options.logger,
  );
  const store = createObjectStore(storageConfigFromEnv(env));
  // The bucket or directory is created on first use, so a service whose storage is down still boots.
  let storeReady: Promise<void> | undefined;
  const initStore = () => {
    storeReady ??= store.init().catch((error) => {
      storeReady = undefined;
      throw error;
    });
    return storeReady;
  };
  return {
    db,
    redis,
    store,
    initStore,
    healthChecks: {
      db: async () => {
        if (!(await checkDb(db))) throw new Error('PostgreSQL did not answer');
      },
      redis: () => pingRedis(redis),
      storage: async () => {
        await initStore();
        await store.check();
      },
    },
    close: async () => {
      redis.disconnect();
      await db.close();
    },
  };
}
