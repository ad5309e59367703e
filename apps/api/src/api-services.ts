import { createAccountService } from '@renamer/accounts';
import { createCredentialsEndedPublisher, subscribeToCredentialsEnded } from '@renamer/auth';
import { billingConfigFromEnv, createBillingService, createStripeClient } from '@renamer/billing';
import { AppError } from '@renamer/contracts';
import { createRepositories, type Database, type Repositories } from '@renamer/db';
import { createMetadataEmbedder } from '@renamer/delivery';
import { emailHash } from '@renamer/domain';
import type { Metrics, ServiceDeps } from '@renamer/http';
import { closeCameraDecoding, configureCameraDecoding, turnOffImageCache } from '@renamer/imaging';
import {
  closeQueues,
  createBatchScheduler,
  createFlowProducer,
  createQueues,
  queueWebhookDelivery,
  webhookNotifier,
} from '@renamer/jobs';
import { createLocalKeywordProvider } from '@renamer/keywords';
import { createLlmProvider, llmConfigFromEnv, llmKeywordProvider } from '@renamer/llm';
import { createBatchTracker, createProgressPublisher, subscribeToProgress } from '@renamer/progress';
import { createFeatureFlags, createRedis, withTimeout } from '@renamer/runtime';
import type { Redis } from 'ioredis';
import { Counter } from 'prom-client';
import { type ApiEnv, DEV_IDP_ISSUER } from './env';
import { createApiKeyService } from './services/api-keys';
import { createBatchService } from './services/batches/batch-service';
import { createUploadService } from './services/batches/upload-service';
import { createDeliveryLinks } from './services/downloads/delivery-links';
import { createDownloadService } from './services/downloads/download-service';
import { type GithubOptions, githubProvider } from './services/github-client';
import { createImagePreviewService } from './services/images/image-preview-service';
import { createImageService } from './services/images/image-service';
import { createKeywordService } from './services/keywords/keyword-service';
import { createOidcClient } from './services/oidc-client';
import { createSignInService } from './services/sign-in';
import { createWebhookService } from './services/webhooks';
import { createProgressHub } from './ws/progress-hub';
import { createUserSocketLimit } from './ws/user-socket-limit';

export type ApiDeps = ServiceDeps<ApiEnv>;

const CLOSE_TIMEOUT_MS = 2_000;
const WS_MAX_MESSAGES = 30;
const WS_MESSAGE_WINDOW_MS = 10_000;
/** A socket counts against its user's cap for three heartbeats after its last renewal. */
const WS_LEASE_HEARTBEATS = 3;
/** About 5,000 progress events a client has not read: far more than a live client ever falls behind. */
const WS_MAX_BUFFERED_BYTES = 2 ** 20;

/**
 * The API's service graph, built once: repositories, queues and flows, the batch tracker, scheduler and
 * progress publisher, and the services the routes call. Nothing here knows about HTTP; `buildApi` hands
 * each route plugin the services it uses. `close` ends what the graph opened.
 */
export function createApiServices({ env, logger, platform }: ApiDeps, metrics: Metrics) {
  turnOffImageCache();
  configureCameraDecoding({ heicThreads: env.HEIC_DECODE_THREADS });
  const repositories = createRepositories(platform.db.db);
  const flags = createFeatureFlags({
    repository: repositories.featureFlags,
    redis: platform.redis,
    redisPrefix: env.REDIS_PREFIX,
    logger,
  });
  const uploadsRejected = new Counter({
    name: 'uploads_rejected_total',
    help: 'Files refused at upload, by problem code (a whole-request refusal counts once).',
    labelNames: ['code'] as const,
    registers: [metrics.registry],
  });
  const queues = createQueues(platform.redis, env.REDIS_PREFIX);
  const flows = createFlowProducer(platform.redis, env.REDIS_PREFIX);
  const publish = createProgressPublisher(platform.redis, env.REDIS_PREFIX);
  const announceEnded = createCredentialsEndedPublisher(platform.redis, env.REDIS_PREFIX, logger);
  const tracker = createBatchTracker({
    batches: repositories.batches,
    images: repositories.images,
    publish,
    onPublishError: (err) => logger.warn({ err }, 'progress event not published'),
    notify: webhookNotifier(queues),
  });
  const scheduler = createBatchScheduler({ flows, queues });

  const oidc = createOidcClient({
    issuer: env.OIDC_ISSUER ?? DEV_IDP_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    redirectUri: new URL('/api/auth/callback', env.PUBLIC_URL).href,
    allowInsecure: env.NODE_ENV !== 'production',
  });
  const github: GithubOptions | undefined =
    env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET
      ? {
          clientId: env.GITHUB_CLIENT_ID,
          clientSecret: env.GITHUB_CLIENT_SECRET,
          baseUrl: env.GITHUB_BASE_URL,
          apiUrl: env.GITHUB_API_URL,
        }
      : undefined;
  const signIn = createSignInService({
    users: repositories.users,
    identities: repositories.userIdentities,
    githubProvider: github && githubProvider(github),
    sessions: repositories.sessions,
    adminEmailHashes: new Set(env.ADMIN_EMAILS.map(emailHash)),
    sessionTtlSeconds: env.SESSION_TTL,
    announceEnded,
  });
  const account = createAccountService({
    db: platform.db.db,
    users: repositories.users,
    auditLog: repositories.auditLog,
    store: platform.store,
    announceEnded,
  });
  const apiKeys = createApiKeyService({ apiKeys: repositories.apiKeys, announceEnded });
  const batches = createBatchService({
    batches: repositories.batches,
    images: repositories.images,
    tracker,
    scheduler,
    publish,
    store: platform.store,
    retainOriginalsDays: env.RETAIN_ORIGINALS_DAYS,
  });
  const images = createImageService({
    images: repositories.images,
    batches: repositories.batches,
    filenameHistory: repositories.filenameHistory,
    tracker,
  });
  const imagePreviews = createImagePreviewService({
    images: repositories.images,
    store: platform.store,
    tmpDir: env.UPLOAD_TMP_DIR,
  });
  const llmConfig = llmConfigFromEnv(env);
  const keywords = createKeywordService({
    providers: [
      ...(llmConfig
        ? [
            {
              ...llmKeywordProvider(createLlmProvider(llmConfig, { logger })),
              enabled: () => flags.isEnabled('llm-keywords'),
            },
          ]
        : []),
      createLocalKeywordProvider(),
    ],
    images: repositories.images,
    batches: repositories.batches,
    log: logger,
  });
  const uploads = createUploadService({
    db: platform.db.db,
    users: repositories.users,
    batches: repositories.batches,
    images: repositories.images,
    store: platform.store,
    scheduler,
    uploadsEnabled: () => flags.isEnabled('uploads-enabled'),
    async recordRejections(codes) {
      for (const code of codes) uploadsRejected.inc({ code });
      await repositories.uploadRejections.record(codes, new Date());
    },
    limits: {
      maxFileBytes: env.UPLOAD_MAX_FILE_BYTES,
      maxRawBytes: env.UPLOAD_MAX_RAW_BYTES,
      maxFiles: env.UPLOAD_MAX_FILES,
      maxPixels: env.UPLOAD_MAX_PIXELS,
      tmpDir: env.UPLOAD_TMP_DIR,
      checkConcurrency: env.UPLOAD_CHECK_CONCURRENCY,
    },
  });

  // One long-lived ExifTool for every embedding; it starts on first use.
  const embedder = createMetadataEmbedder({ tmpDir: env.UPLOAD_TMP_DIR });
  const downloads = createDownloadService({
    archiveEntries: repositories.archiveEntries,
    images: repositories.images,
    batches: repositories.batches,
    downloads: repositories.downloads,
    store: platform.store,
    links: createDeliveryLinks(env.SESSION_SECRET),
    publicUrl: env.PUBLIC_URL,
    signingSecret: env.SESSION_SECRET,
    embedder,
    embedEnabled: () => flags.isEnabled('embed-metadata'),
  });

  const webhooks = createWebhookService({
    webhooks: repositories.webhooks,
    allowInsecure: env.WEBHOOKS_ALLOW_INSECURE,
    queueDelivery: (delivery) => queueWebhookDelivery(queues, delivery),
  });

  const progressHub = createProgressHub({
    loadOwnBatchStatus: (userId, batchId) => batches.status(userId, batchId).catch(nullWhenNotFound),
    checkCredentials: (credentials) =>
      repositories.credentials.stillActive(
        {
          sessionIds: [...new Set(credentials.filter((c) => c.via === 'session').map((c) => c.id))],
          apiKeyIds: [...new Set(credentials.filter((c) => c.via === 'apiKey').map((c) => c.id))],
        },
        new Date(),
      ),
    socketLimit: createUserSocketLimit({
      redis: platform.redis,
      redisPrefix: env.REDIS_PREFIX,
      maxPerUser: env.WS_MAX_SOCKETS_PER_USER,
      leaseMs: WS_LEASE_HEARTBEATS * env.WS_PING_INTERVAL_MS,
      log: logger,
    }),
    maxMessages: WS_MAX_MESSAGES,
    windowMs: WS_MESSAGE_WINDOW_MS,
    pingIntervalMs: env.WS_PING_INTERVAL_MS,
    pongTimeoutMs: env.WS_PONG_TIMEOUT_MS,
    statusIntervalMs: env.WS_STATUS_INTERVAL_MS,
    maxBufferedBytes: WS_MAX_BUFFERED_BYTES,
  });
  // A connection of its own: one in subscriber mode can do nothing else. Opened once the API listens (building
  // the graph, for the OpenAPI document or a test, opens nothing); it waits for Redis instead of failing, and
  // is not awaited, so the API starts while Redis is down and subscribes once it is back.
  let progressSubscriber: Redis | undefined;
  function listenForProgress() {
    if (progressSubscriber) return;
    progressSubscriber = createRedis(env.REDIS_URL, {}, logger);
    // ioredis subscribes again by itself after a reconnection, but what was published meanwhile is gone.
    let connectedBefore = false;
    progressSubscriber.on('ready', () => {
      if (connectedBefore) progressHub.feedInterrupted();
      connectedBefore = true;
    });
    subscribeToProgress(progressSubscriber, env.REDIS_PREFIX, progressHub.deliver, (raw) =>
      logger.warn({ raw: raw.slice(0, 200) }, 'invalid progress event ignored'),
    ).catch((err) => logger.warn({ err }, 'progress channel not subscribed'));
    subscribeToCredentialsEnded(progressSubscriber, env.REDIS_PREFIX, progressHub.endCredentials).catch((err) =>
      logger.warn({ err }, 'ended credentials not subscribed; their sockets close at the next check'),
    );
  }

  const billing = billingOf(env, platform.db.db, repositories);
  return {
    repositories,
    flags,
    billing,
    payments: billing && createBillingService({ ...billing.deps, publicUrl: env.PUBLIC_URL }),
    oidc,
    github,
    signIn,
    account,
    apiKeys,
    batches,
    images,
    imagePreviews,
    keywords,
    uploads,
    downloads,
    webhooks,
    progressHub,
    listenForProgress,

    async close() {
      await flags.close();
      await progressHub.close();
      await embedder.close();
      await closeCameraDecoding();
      // Disconnecting drops the subscription too, and never waits for a Redis that is down.
      progressSubscriber?.disconnect();
      // Bounded: BullMQ waits for Redis without end, and the shared connection is closed with the platform.
      await withTimeout(Promise.all([flows.close(), closeQueues(queues)]), CLOSE_TIMEOUT_MS, 'closing queues').catch(
        (err) => logger.warn({ err }, 'queues not closed cleanly'),
      );
    },
  };
}

/** Stripe's client and what the webhook acts on, or null when payments are not configured. */
function billingOf(env: ApiEnv, db: Database, repositories: Repositories) {
  const config = billingConfigFromEnv(env);
  if (!config) return null;
  const stripe = createStripeClient(config);
  const { users, subscriptions, webhookEvents, payments, auditLog } = repositories;
  return { config, stripe, deps: { db, config, stripe, users, subscriptions, webhookEvents, payments, auditLog } };
}

function nullWhenNotFound(error: unknown): null {
  if (error instanceof AppError && error.code === 'not_found') return null;
  throw error;
}
