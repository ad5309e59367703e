import helmet from '@fastify/helmet';
import { authentication } from '@renamer/auth';
import { AppError } from '@renamer/contracts';
import { createRepositories } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import {
  createBatchScheduler,
  createBatchTracker,
  createProgressPublisher,
  subscribeToProgress,
} from '@renamer/pipeline';
import { closeQueues, createFlowProducer, createQueues } from '@renamer/queue';
import { createHttpService, createMetrics, type ServiceDeps } from '@renamer/service-kit';
import type { FastifyInstance } from 'fastify';
import { type ApiEnv, DEV_IDP_ISSUER } from './env';
import { registerOpenApi } from './plugins/openapi';
import { registerRateLimit } from './plugins/rate-limit';
import { accountRoutes } from './routes/auth/account';
import { apiKeyRoutes } from './routes/auth/api-keys';
import { signInRoutes } from './routes/auth/sign-in';
import { batchRoutes } from './routes/batches';
import { filesRoutes } from './routes/files';
import { wsRoutes } from './routes/ws';
import { createAccountService } from './services/account';
import { createApiKeyService } from './services/api-keys';
import { createBatchService } from './services/batches/batch-service';
import { createUploadService } from './services/batches/upload-service';
import { createOidcClient } from './services/oidc-client';
import { createSignInService } from './services/sign-in';
import { registerHubMetrics } from './ws/hub-metrics';
import { createProgressHub } from './ws/progress-hub';

export type ApiDeps = ServiceDeps<ApiEnv>;

export const API_VERSION = '0.1.0';

/** The HTTP API: external plugins first, then the app's services, then its routes. */
export async function buildApi({ env, logger, platform }: ApiDeps): Promise<FastifyInstance> {
  const metrics = createMetrics('api');
  const app = createHttpService({
    service: 'api',
    metrics,
    logger,
    healthChecks: platform.healthChecks,
    trustProxy: env.TRUST_PROXY,
  });
  const repositories = createRepositories(platform.db.db);
  const secureCookies = env.NODE_ENV !== 'development';

  await app.register(helmet, { global: true });
  await registerOpenApi(app, API_VERSION);
  await app.register(authentication, {
    secret: env.SESSION_SECRET,
    secureCookies,
    sessions: repositories.sessions,
    apiKeys: repositories.apiKeys,
  });
  await registerRateLimit(app, {
    redis: platform.redis,
    redisPrefix: env.REDIS_PREFIX,
    perMinute: env.RATE_LIMIT_PER_MINUTE,
    signInPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
  });

  const oidc = createOidcClient({
    issuer: env.OIDC_ISSUER ?? DEV_IDP_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    redirectUri: new URL('/api/auth/callback', env.PUBLIC_URL).href,
    allowInsecure: env.NODE_ENV !== 'production',
  });
  const signIn = createSignInService({
    users: repositories.users,
    sessions: repositories.sessions,
    adminEmailHashes: new Set(env.ADMIN_EMAILS.map(emailHash)),
    sessionTtlSeconds: env.SESSION_TTL,
  });
  const account = createAccountService({ users: repositories.users, store: platform.store, logger });
  const apiKeys = createApiKeyService({ apiKeys: repositories.apiKeys });

  await app.register(signInRoutes, {
    oidc,
    signIn,
    publicUrl: env.PUBLIC_URL,
    secureCookies,
    sessionTtlSeconds: env.SESSION_TTL,
  });
  await app.register(accountRoutes, {
    account,
    revokeSession: (sessionId) => repositories.sessions.revoke(sessionId, new Date()),
  });
  await app.register(apiKeyRoutes, { apiKeys });

  const queues = createQueues(platform.redis, env.REDIS_PREFIX);
  const flows = createFlowProducer(platform.redis, env.REDIS_PREFIX);
  const publish = createProgressPublisher(platform.redis, env.REDIS_PREFIX);
  const tracker = createBatchTracker({ batches: repositories.batches, images: repositories.images, publish });
  const scheduler = createBatchScheduler({ flows, queues });
  const batches = createBatchService({
    batches: repositories.batches,
    images: repositories.images,
    tracker,
    scheduler,
    publish,
    store: platform.store,
    logger,
  });
  const limits = {
    maxFileBytes: env.UPLOAD_MAX_FILE_BYTES,
    maxFiles: env.UPLOAD_MAX_FILES,
    maxPixels: env.UPLOAD_MAX_PIXELS,
    tmpDir: env.UPLOAD_TMP_DIR,
  };
  const uploads = createUploadService({
    db: platform.db.db,
    users: repositories.users,
    batches: repositories.batches,
    images: repositories.images,
    store: platform.store,
    scheduler,
    limits,
    logger,
  });
  await app.register(batchRoutes, { batches, uploads, limits });

  const hub = createProgressHub({
    loadOwnBatchStatus: (userId, batchId) => batches.status(userId, batchId).catch(nullWhenNotFound),
    logger,
    maxMessages: 30,
    windowMs: 10_000,
    pingIntervalMs: env.WS_PING_INTERVAL_MS,
    pongTimeoutMs: env.WS_PONG_TIMEOUT_MS,
  });
  registerHubMetrics(metrics, hub);
  // A connection of its own: one in subscriber mode can do nothing else. Not awaited, so the API
  // starts while Redis is down; ioredis subscribes once it connects.
  const subscriber = platform.redis.duplicate();
  const unsubscribe = subscribeToProgress(subscriber, env.REDIS_PREFIX, hub.deliver, (raw) =>
    logger.warn({ raw: raw.slice(0, 200) }, 'invalid progress event ignored'),
  );
  await app.register(wsRoutes, {
    hub,
    allowedOrigins: new Set([
      new URL(env.PUBLIC_URL).origin,
      ...env.WS_ALLOWED_ORIGINS.map((url) => new URL(url).origin),
    ]),
  });
  app.addHook('onClose', async () => {
    hub.close();
    await unsubscribe.then((stop) => stop()).catch(() => undefined);
    subscriber.disconnect();
    await flows.close();
    await closeQueues(queues);
  });
  await app.register(filesRoutes, { store: platform.store, signingSecret: env.SESSION_SECRET });
  return app;
}

function nullWhenNotFound(error: unknown): null {
  if (error instanceof AppError && error.code === 'not_found') return null;
  throw error;
}
