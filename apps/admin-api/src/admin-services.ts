import { createAccountService } from '@renamer/accounts';
import { createCredentialsEndedPublisher } from '@renamer/auth';
import { billingConfigFromEnv, createStripeClient } from '@renamer/billing';
import { createRepositories } from '@renamer/db';
import type { ServiceDeps } from '@renamer/http';
import { closeQueues, createCleanupTasks, createQueues } from '@renamer/jobs';
import { createBatchTracker, createProgressPublisher } from '@renamer/progress';
import { createFeatureFlags } from '@renamer/runtime';
import type { AdminEnv } from './env';

export type AdminDeps = ServiceDeps<AdminEnv>;

/**
 * The admin API's service graph, built once: repositories, the queues it inspects and the services its
 * routes call. `buildAdminApi` hands each route plugin what it uses; `close` ends what the graph opened.
 */
export function createAdminServices({ env, logger, platform }: AdminDeps) {
  const repositories = createRepositories(platform.db.db);
  const queues = createQueues(platform.redis, env.REDIS_PREFIX);
  const accounts = createAccountService({
    db: platform.db.db,
    users: repositories.users,
    auditLog: repositories.auditLog,
    store: platform.store,
    announceEnded: createCredentialsEndedPublisher(platform.redis, env.REDIS_PREFIX, logger),
  });

  const flags = createFeatureFlags({
    repository: repositories.featureFlags,
    redis: platform.redis,
    redisPrefix: env.REDIS_PREFIX,
    logger,
  });

  const billing = billingConfigFromEnv(env);
  const cleanup = createCleanupTasks({
    downloads: repositories.downloads,
    images: repositories.images,
    batches: repositories.batches,
    tracker: createBatchTracker({
      batches: repositories.batches,
      images: repositories.images,
      publish: createProgressPublisher(platform.redis, env.REDIS_PREFIX),
      onPublishError: (err) => logger.warn({ err }, 'progress event not published'),
    }),
    store: platform.store,
    queues,
    config: env,
  });

  return {
    repositories,
    queues,
    accounts,
    flags,
    cleanup,
    /** Stripe's client, or null when payments are not configured. */
    stripe: billing && createStripeClient(billing),
    close: async () => {
      await flags.close();
      await closeQueues(queues);
    },
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
