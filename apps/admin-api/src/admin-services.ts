import { createAccountService } from '@renamer/accounts';
import { createCredentialsEndedPublisher } from '@renamer/auth';
import { billingConfigFromEnv, createStripeClient } from '@renamer/billing';
import { createRepositories } from '@renamer/db';
import type { Metrics, ServiceDeps } from '@renamer/http';
import { closeQueues, createCleanupTasks, createQueues } from '@renamer/jobs';
import { createBatchTracker, createProgressPublisher } from '@renamer/progress';
import { createFeatureFlags, logStreamKey } from '@renamer/runtime';
import type { AdminEnv } from './env';
import { createAnalyticsService } from './services/analytics';
import { createAuditLogService } from './services/audit-log';
import { createCleanupService } from './services/cleanup';
import { createFeatureFlagService } from './services/feature-flags';
import { createHealthService } from './services/health';
import { createLogService } from './services/logs';
import { createMetricsService } from './services/metrics';
import { createPaymentService } from './services/payments';
import { createQueueService } from './services/queues';
import { createUserService } from './services/users';

export type AdminDeps = ServiceDeps<AdminEnv>;

/**
 * The admin API's service graph, built once: repositories, the queues it inspects, Stripe, and one service per
 * resource, which the routes call. Nothing here knows about HTTP; `buildAdminApi` hands each route plugin the
 * service it uses. Each admin action writes its audit entry in the service function that does it, in the
 * action's transaction when the action is in the database. `close` ends what the graph opened.
 */
export function createAdminServices({ env, logger, platform }: AdminDeps, metrics: Metrics) {
  const { db } = platform.db;
  const repositories = createRepositories(db);
  const { auditLog } = repositories;
  const queues = createQueues(platform.redis, env.REDIS_PREFIX);
  const accounts = createAccountService({
    db,
    users: repositories.users,
    auditLog,
    store: platform.store,
    announceEnded: createCredentialsEndedPublisher(platform.redis, env.REDIS_PREFIX, logger),
  });
  const featureFlags = createFeatureFlags({
    repository: repositories.featureFlags,
    redis: platform.redis,
    redisPrefix: env.REDIS_PREFIX,
    logger,
  });
  const billing = billingConfigFromEnv(env);
  const cleanupTasks = createCleanupTasks({
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
    /** For the caller plugins (credentials and their users); routes get services. */
    repositories,
    users: createUserService({
      accounts,
      users: repositories.users,
      payments: repositories.payments,
      quotaCredits: repositories.quotaCredits,
    }),
    payments: createPaymentService({
      db,
      payments: repositories.payments,
      auditLog,
      stripe: billing && createStripeClient(billing),
    }),
    queues: createQueueService({ queues, auditLog }),
    flags: createFeatureFlagService({ db, featureFlags: repositories.featureFlags, auditLog, flags: featureFlags }),
    cleanup: createCleanupService({ tasks: cleanupTasks, auditLog }),
    analytics: createAnalyticsService({ analytics: repositories.analytics, downloads: repositories.downloads }),
    auditLog: createAuditLogService({ auditLog }),
    health: createHealthService({ healthChecks: platform.healthChecks, queues }),
    logs: createLogService({ redis: platform.redis, streamKey: logStreamKey(env.REDIS_PREFIX) }),
    metrics: createMetricsService({ targets: env.METRICS_TARGETS, own: metrics, queues }),
    close: async () => {
      await featureFlags.close();
      await closeQueues(queues);
    },
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
