import { startAuthStack } from '@renamer/api/testing';
import { buildAdminApi } from '../../src/app';
import { loadAdminEnv } from '../../src/env';

/**
 * The API's sign-in stack (development OpenID provider and API) with the admin API beside it on the same
 * host, over the same database: people sign in on the API and carry its cookies to the admin API.
 */
export async function startAdminStack(options: { name: string; adminEmails: string }) {
  const auth = await startAuthStack(options);
  const env = loadAdminEnv(auth.serviceEnv);
  const admin = await buildAdminApi({ env, logger: auth.logger, platform: auth.platform });
  const adminUrl = await admin.listen({ port: 0, host: '127.0.0.1' });

  return {
    ...auth,
    admin,
    adminUrl,
    async close() {
      await admin.close();
      await auth.close();
    },
  };
}

export type AdminStack = Awaited<ReturnType<typeof startAdminStack>>;
