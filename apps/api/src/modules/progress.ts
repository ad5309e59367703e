import { AppError } from '@renamer/contracts';
import { subscribeToProgress } from '@renamer/pipeline';
import { createRedis } from '@renamer/service-kit';
import type { FastifyInstance } from 'fastify';
import { wsRoutes } from '../routes/ws';
import type { BatchService } from '../services/batches/batch-service';
import { registerHubMetrics } from '../ws/hub-metrics';
import { createProgressHub } from '../ws/progress-hub';
import type { ModuleDeps } from './types';

const MAX_MESSAGES = 30;
const MESSAGE_WINDOW_MS = 10_000;

/** `GET /api/ws`: this instance's rooms, fed by the progress events every service publishes on Redis. */
export async function registerProgressModule(
  app: FastifyInstance,
  { env, logger, metrics }: ModuleDeps,
  batches: Pick<BatchService, 'status'>,
) {
  const hub = createProgressHub({
    loadOwnBatchStatus: (userId, batchId) => batches.status(userId, batchId).catch(nullWhenNotFound),
    logger,
    maxMessages: MAX_MESSAGES,
    windowMs: MESSAGE_WINDOW_MS,
    pingIntervalMs: env.WS_PING_INTERVAL_MS,
    pongTimeoutMs: env.WS_PONG_TIMEOUT_MS,
  });
  registerHubMetrics(metrics, hub);
  // A connection of its own: one in subscriber mode can do nothing else. It waits for Redis instead of
  // failing, and is not awaited, so the API starts while Redis is down and subscribes once it is back.
  const subscriber = createRedis(env.REDIS_URL, {}, logger);
  subscribeToProgress(subscriber, env.REDIS_PREFIX, hub.deliver, (raw) =>
    logger.warn({ raw: raw.slice(0, 200) }, 'invalid progress event ignored'),
  ).catch((err) => logger.warn({ err }, 'progress channel not subscribed'));
  // Disconnecting drops the subscription too, and never waits for a Redis that is down.
  app.addHook('onClose', async () => {
    hub.close();
    subscriber.disconnect();
  });
  await app.register(wsRoutes, {
    hub,
    allowedOrigins: new Set([
      new URL(env.PUBLIC_URL).origin,
      ...env.WS_ALLOWED_ORIGINS.map((url) => new URL(url).origin),
    ]),
  });
}

function nullWhenNotFound(error: unknown): null {
  if (error instanceof AppError && error.code === 'not_found') return null;
  throw error;
}
