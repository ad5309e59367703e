import { randomUUID } from 'node:crypto';
import { browser, startAuthStack } from '@renamer/api/testing';
import { freePort } from '@renamer/runtime/testing';
import { buildAdminApi } from '../../src/app';
import { loadAdminEnv } from '../../src/env';

/**
 * The API's sign-in stack (development OpenID provider and API) with the admin API beside it on the same
 * host, over the same database: people sign in on the API and carry its cookies to the admin API (or reach it
 * through the API's `/api/admin/*`).
 */
export async function startAdminStack(options: {
  name: string;
  adminEmails: string;
  env?: Record<string, string>;
  /** More of the API's variables. */
  apiEnv?: Record<string, string>;
  isolatedDatabase?: boolean;
}) {
  // Its port first: the API passes /api/admin/* on to it.
  const adminPort = await freePort();
  const auth = await startAuthStack({
    ...options,
    apiEnv: { ...options.apiEnv, ADMIN_API_URL: `http://127.0.0.1:${adminPort}` },
  });
  const env = loadAdminEnv({ ...auth.serviceEnv, ...options.env });
  const admin = await buildAdminApi({ env, logger: auth.logger, platform: auth.platform });
  const adminUrl = await admin.listen({ port: adminPort, host: '127.0.0.1' });

  return {
    ...auth,
    adminEnv: env,
    admin,
    adminUrl,
    async close() {
      await admin.close();
      await auth.close();
    },
  };
}

export type AdminStack = Awaited<ReturnType<typeof startAdminStack>>;

/** A person signed in on the API: their browser there, and on the admin API with the same cookies. */
export async function signedIn(stack: AdminStack, email = `user-${randomUUID().slice(0, 8)}@renamer.test`) {
  const { jar } = await stack.signIn(email);
  const api = browser(stack.apiUrl, jar);
  const { id } = (await (await api.fetch('/api/auth/me')).json()) as { id: string };
  return { id, api, admin: browser(stack.adminUrl, jar, stack.apiUrl) };
}

/** A signed-in person with an API key too, as a script would call the API. */
export async function userWithApiKey(stack: AdminStack, email?: string) {
  const user = await signedIn(stack, email);
  const created = await user.api.fetch('/api/auth/api-keys', {
    method: 'POST',
    json: { name: 'script' },
    csrf: await user.api.csrfToken(),
  });
  const { key } = (await created.json()) as { key: string };
  const callApi = (path = '/api/auth/me', init: RequestInit = {}) =>
    fetch(`${stack.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });
  return { ...user, key, callApi };
}
