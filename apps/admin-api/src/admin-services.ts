import { createAccountService } from '@renamer/accounts';
import { createRepositories } from '@renamer/db';
import { closeQueues, createQueues } from '@renamer/queue';
import type { ServiceDeps } from '@renamer/service-kit';
import type { AdminEnv } from './env';

export type AdminDeps = ServiceDeps<AdminEnv>;

/**
 * The admin API's service graph, built once: repositories, the queues it inspects and the services its
 * routes call. `buildAdminApi` hands each route plugin what it uses; `close` ends what the graph opened.
 */
export function createAdminServices({ env, platform }: AdminDeps) {
  const repositories = createRepositories(platform.db.db);
  const queues = createQueues(platform.redis, env.REDIS_PREFIX);
  const accounts = createAccountService({
    db: platform.db.db,
    users: repositories.users,
    auditLog: repositories.auditLog,
    store: platform.store,
  });

  return {
    repositories,
    queues,
    accounts,
    close: () => closeQueues(queues),
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
