import { buildAdminApi } from '@renamer/admin-api/app';
import { loadAdminEnv } from '@renamer/admin-api/env';
import { createRepositories } from '@renamer/db';
import { createDevIdp, type DevIdp } from '@renamer/dev-idp';
import { CookieJar, signInThroughDevIdp } from '@renamer/dev-idp/testing';
import { createLogger, createPlatform } from '@renamer/service-kit';
import { freePort, testServiceEnv } from '@renamer/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../../src/app';
import { loadApiEnv } from '../../src/env';

const CLIENT = { clientId: 'renamer-test', clientSecret: 'renamer-test-secret' };

/**
 * A real sign-in stack on loopback: the development OpenID provider, the API and the admin API, over
 * real PostgreSQL and Redis. Each stack has its own Redis prefix, so its rate-limit counters are its own.
 */
export async function startAuthStack(options: {
  name: string;
  authRateLimitPerMinute?: number;
  rateLimitPerMinute?: number;
  adminEmails?: string;
}) {
  const [apiPort, adminPort] = [await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const idp: DevIdp = createDevIdp({
    issuer: 'http://127.0.0.1:0',
    clients: [{ ...CLIENT, redirectUris: [`${apiUrl}/api/auth/callback`] }],
  });
  const issuer = await idp.listen();

  const baseEnv = { ...testServiceEnv(options.name), PUBLIC_URL: apiUrl, LOG_LEVEL: 'silent' };
  const env = loadApiEnv({
    ...baseEnv,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT.clientId,
    OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    ADMIN_EMAILS: options.adminEmails ?? '',
    AUTH_RATE_LIMIT_PER_MINUTE: String(options.authRateLimitPerMinute ?? 1000),
    RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute ?? 300),
  });
  const logger = createLogger('api', 'silent');
  const platform = createPlatform(env);
  const api: FastifyInstance = await buildApi({ env, logger, platform });
  await api.listen({ port: apiPort, host: '127.0.0.1' });
  const adminEnv = loadAdminEnv(baseEnv);
  const admin = await buildAdminApi({ env: adminEnv, logger, platform });
  await admin.listen({ port: adminPort, host: '127.0.0.1' });

  return {
    env,
    api,
    admin,
    apiUrl,
    adminUrl,
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
      await admin.close();
      await api.close();
      await platform.close();
      await idp.close();
    },
  };
}

export type AuthStack = Awaited<ReturnType<typeof startAuthStack>>;

/** A browser-like client of one origin: keeps its cookies and sends them, and the CSRF header on request. */
export function browser(origin: string, jar = new CookieJar()) {
  return {
    jar,
    async fetch(path: string, init: RequestInit & { csrf?: string; json?: unknown } = {}) {
      const url = new URL(path, origin);
      const headers = new Headers(init.headers);
      const cookie = jar.headerFor(url);
      if (cookie) headers.set('cookie', cookie);
      if (init.csrf) headers.set('x-csrf-token', init.csrf);
      if (init.json !== undefined) headers.set('content-type', 'application/json');
      const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
      const response = await fetch(url, { ...init, headers, body, redirect: 'manual' });
      jar.storeFrom(url, response);
      return response;
    },
    async csrfToken(): Promise<string> {
      const response = await this.fetch('/api/auth/csrf');
      return ((await response.json()) as { token: string }).token;
    },
  };
}
