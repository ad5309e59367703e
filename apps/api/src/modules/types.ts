import type { Repositories } from '@renamer/db';
import type { Logger, Metrics, Platform } from '@renamer/service-kit';
import type { ApiEnv } from '../env';

/** What every module of the API is built from (one composition root: `app.ts`). */
export interface ModuleDeps {
  env: ApiEnv;
  logger: Logger;
  platform: Platform;
  repositories: Repositories;
  metrics: Metrics;
}
