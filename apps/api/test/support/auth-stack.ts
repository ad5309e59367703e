import { createRepositories } from '@renamer/db';
import { createDevIdp, type DevIdp } from '@renamer/dev-idp';
import { CookieJar, signInThroughDevIdp } from '@renamer/dev-idp/testing';
import { createLogger, createPlatform } from '@renamer/runtime';
import { createIsolatedDatabase, freePort, testServiceEnv } from '@renamer/runtime/testing';
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../../src/app';
import { loadApiEnv } from '../../src/env';

const CLIENT = { clientId: 'renamer-test', clientSecret: 'renamer-test-secret' };

/**
 * A real sign-in stack on loopback: the development OpenID provider and the API, over real PostgreSQL and
 * Redis. Each stack has its own Redis prefix, so its rate-limit counters are its own. Another service on
 * the same host (the admin API) starts from `serviceEnv` and `platform`, and takes the same cookies.
 */
export async function startAuthStack(options: {
  name: string;
  authRateLimitPerMinute?: number;
  rateLimitPerMinute?: number;
  adminEmails?: string;
  /** A database of the stack's own, for tests that count rows across the whole database. */
  isolatedDatabase?: boolean;
  /** More of the API's variables (a web app to serve, say). */
  apiEnv?: Record<string, string>;
}) {
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const idp: DevIdp = createDevIdp({
    issuer: 'http://127.0.0.1:0',
    clients: [{ ...CLIENT, redirectUris: [`${apiUrl}/api/auth/callback`] }],
  });
  const issuer = await idp.listen();

  const database = options.isolatedDatabase ? await createIsolatedDatabase(process.env.DATABASE_URL!) : undefined;
  const serviceEnv = {
    ...testServiceEnv(options.name),
    PUBLIC_URL: apiUrl,
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  const env = loadApiEnv({
    ...serviceEnv,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT.clientId,
    OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    ADMIN_EMAILS: options.adminEmails ?? '',
    AUTH_RATE_LIMIT_PER_MINUTE: String(options.authRateLimitPerMinute ?? 1000),
    RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute ?? 300),
    ...options.apiEnv,
  });
  const logger = createLogger('api', env.LOG_LEVEL);
  const platform = createPlatform(env);
  const api: FastifyInstance = await buildApi({ env, logger, platform });
  await api.listen({ port: apiPort, host: '127.0.0.1' });

  return {
    env,
    serviceEnv,
    logger,
    api,
    apiUrl,
    issuer,
    platform,
    repositories: createRepositories(platform.db.db),

    /** Signs in through the real redirect flow (in `cookieJar`, when given); returns the browser's cookies. */
    async signIn(email: string, name = 'Test Person', returnTo = '/after-sign-in', cookieJar?: CookieJar) {
      const login = new URL(`/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`, apiUrl);
      const result = await signInThroughDevIdp({
        startUrl: login.href,
        email,
        name,
        stopAt: (location) => location.origin === apiUrl && !location.pathname.startsWith('/api/'),
        cookieJar,
      });
      return { jar: result.cookieJar, landedOn: result.stoppedAt };
    },

    async close() {
      await api.close();
      await platform.close();
      await idp.close();
      await database?.drop();
    },
  };
}

export type AuthStack = Awaited<ReturnType<typeof startAuthStack>>;

/**
 * A browser-like client of one origin: keeps its cookies and sends them, and the CSRF header on request.
 * Cookies belong to the host, not the port: a client of another service on the host (the admin API) sends
 * the cookies of `cookieOrigin`.
 */
export function browser(origin: string, jar = new CookieJar(), cookieOrigin = origin) {
  return {
    jar,
    async fetch(path: string, init: RequestInit & { csrf?: string; json?: unknown } = {}) {
      const url = new URL(path, origin);
      const cookieUrl = new URL(path, cookieOrigin);
      const headers = new Headers(init.headers);
      const cookie = jar.headerFor(cookieUrl);
      if (cookie) headers.set('cookie', cookie);
      if (init.csrf) headers.set('x-csrf-token', init.csrf);
      if (init.json !== undefined) headers.set('content-type', 'application/json');
      const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
      const response = await fetch(url, { ...init, headers, body, redirect: 'manual' });
      jar.storeFrom(cookieUrl, response);
      return response;
    },
    async csrfToken(): Promise<string> {
      const response = await this.fetch('/api/auth/csrf');
      return ((await response.json()) as { token: string }).token;
    },
  };
}
