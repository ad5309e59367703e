import websocket from '@fastify/websocket';
import { registerCallerPlugins, requireCredentials, secureCookies } from '@renamer/auth';
import { createHttpService, createMetrics, registerOpenApi } from '@renamer/http';
import type { FastifyInstance } from 'fastify';
import { type ApiDeps, createApiServices } from './api-services';
import { API_OPENAPI } from './openapi-info';
import { accountRoutes } from './routes/account';
import { adminProxyRoutes } from './routes/admin-proxy';
import { apiKeyRoutes } from './routes/api-keys';
import { batchRoutes } from './routes/batches';
import { downloadRoutes } from './routes/downloads';
import { filesRoutes } from './routes/files';
import { imageRoutes } from './routes/images';
import { imagePreviewRoutes } from './routes/images/preview';
import { keywordRoutes } from './routes/keywords';
import { paymentRoutes } from './routes/payments';
import { webhookRoutes } from './routes/payments/webhook';
import { signInRoutes } from './routes/sign-in';
import { webAppBuilt, webAppRoutes } from './routes/web-app';
import { webhookEndpointRoutes } from './routes/webhooks';
import { wsRoutes } from './routes/ws';
import { registerHubMetrics } from './ws/hub-metrics';

/** Login, callback and logout share one stricter rate-limit counter per client address. */
const SIGN_IN_ROUTES = new Set(['/api/auth/login', '/api/auth/callback', '/api/auth/logout']);
/**
 * Previews share a larger counter per user: a review page or grid asks for hundreds a minute, and neither
 * they nor the other routes should use up the other's budget.
 */
const PREVIEW_ROUTES = new Set(['/api/image/:imageId/preview']);

/**
 * The HTTP API's composition root: the service graph once, then external plugins, then routes, each
 * given the services it uses. Every route needs credentials except the public ones registered first
 * (and /health/*, /metrics and the OpenAPI document, which come with the service and its plugins).
 */
export async function buildApi(deps: ApiDeps): Promise<FastifyInstance> {
  const { env, logger, platform } = deps;
  const metrics = createMetrics('api');
  const app = createHttpService({
    service: 'api',
    metrics,
    logger,
    healthChecks: env.WEB_DIST_DIR
      ? { ...platform.healthChecks, web: webAppBuilt(env.WEB_DIST_DIR) }
      : platform.healthChecks,
    trustProxy: env.TRUST_PROXY,
    securityHeaders: { https: env.PUBLIC_URL.startsWith('https:') },
    checkResponses: env.NODE_ENV === 'test',
  });
  const services = createApiServices(deps, metrics);
  app.addHook('onListen', async () => services.listenForProgress());
  app.addHook('onClose', services.close);
  registerHubMetrics(metrics, services.progressHub);

  // At the root: its hooks must see an upgrade request before the guard refuses it, or the refused
  // upgrade's socket is never closed.
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  await registerOpenApi(app, API_OPENAPI);
  await registerCallerPlugins(app, {
    env,
    redis: platform.redis,
    repositories: services.repositories,
    service: 'api',
    rateLimitGroups: [
      { name: 'sign-in', routes: SIGN_IN_ROUTES, perMinute: env.AUTH_RATE_LIMIT_PER_MINUTE, per: 'address' },
      { name: 'preview', routes: PREVIEW_ROUTES, perMinute: env.PREVIEW_RATE_LIMIT_PER_MINUTE, per: 'caller' },
    ],
  });

  // Public.
  await app.register(signInRoutes, {
    oidc: services.oidc,
    github: services.github,
    signIn: services.signIn,
    publicUrl: env.PUBLIC_URL,
    secureCookies: secureCookies(env),
    sessionTtlSeconds: env.SESSION_TTL,
  });
  await app.register(filesRoutes, { downloads: services.downloads });
  await app.register(webhookRoutes, { billing: services.billing });
  if (env.WEB_DIST_DIR) await app.register(webAppRoutes, { root: env.WEB_DIST_DIR });
  // The admin API checks the credentials itself.
  if (env.ADMIN_API_URL) await app.register(adminProxyRoutes, { upstream: env.ADMIN_API_URL });

  // Everything else.
  await app.register(requireCredentials, {
    routes: async (signedIn) => {
      await signedIn.register(accountRoutes, {
        account: services.account,
        signIn: services.signIn,
        retainOriginalsDays: env.RETAIN_ORIGINALS_DAYS,
      });
      await signedIn.register(apiKeyRoutes, { apiKeys: services.apiKeys });
      await signedIn.register(batchRoutes, { batches: services.batches, uploads: services.uploads });
      await signedIn.register(downloadRoutes, { downloads: services.downloads });
      await signedIn.register(imageRoutes, { images: services.images });
      await signedIn.register(imagePreviewRoutes, { previews: services.imagePreviews });
      await signedIn.register(paymentRoutes, { billing: services.payments });
      await signedIn.register(keywordRoutes, {
        keywords: services.keywords,
        perMinute: env.KEYWORD_RATE_LIMIT_PER_MINUTE,
      });
      await signedIn.register(webhookEndpointRoutes, { webhooks: services.webhooks });
      await signedIn.register(wsRoutes, {
        hub: services.progressHub,
        allowedOrigins: new Set([
          new URL(env.PUBLIC_URL).origin,
          ...env.WS_ALLOWED_ORIGINS.map((url) => new URL(url).origin),
        ]),
      });
    },
  });
  return app;
}
