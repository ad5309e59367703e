import { closeOnSignals, createLogger, createPlatform, exitOnBootFailure, logShippingFromEnv } from '@renamer/runtime';
import { initErrorTracking } from '@renamer/telemetry';
import { buildWorker, type WorkerDeps } from './build-worker';
import { loadWorkerEnv } from './env';

/** Beyond the job lock: a running job finishes, or its lock lapses and another worker takes it over. */
const SHUTDOWN_MARGIN_MS = 5_000;

/** The whole life of a worker process: parse env, build, close gracefully on SIGTERM/SIGINT, start. */
export async function runWorker(overrides: Pick<WorkerDeps, 'wrapAnalyzer'> = {}): Promise<void> {
  try {
    const env = loadWorkerEnv();
    const logger = createLogger('worker', env.LOG_LEVEL, env.NODE_ENV, logShippingFromEnv(env));
    await initErrorTracking({ dsn: env.SENTRY_DSN, service: 'worker', environment: env.NODE_ENV });
    const worker = buildWorker({ env, logger, platform: createPlatform(env, { logger }), ...overrides });
    closeOnSignals(logger, worker.closers, env.WORKER_LOCK_MS + SHUTDOWN_MARGIN_MS);
    await worker.start();
  } catch (error) {
    exitOnBootFailure('worker', error);
  }
}
