import { createLogger, createPlatform } from '@renamer/runtime';
import { testServiceEnv } from '@renamer/runtime/testing';
import { buildAdminApi } from '../../src/app';
import { loadAdminEnv } from '../../src/env';

/** The admin API alone on loopback, over the test database and a Redis prefix of its own. */
export async function startAdminApi(name: string, env: Record<string, string> = {}) {
  const adminEnv = loadAdminEnv({ ...testServiceEnv(name), ...env });
  const platform = createPlatform(adminEnv);
  const app = await buildAdminApi({ env: adminEnv, logger: createLogger('admin-api', adminEnv.LOG_LEVEL), platform });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    url,
    async close() {
      await app.close();
      await platform.close();
    },
  };
}
