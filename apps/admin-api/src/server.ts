import { runHttpService } from '@renamer/http';
import { buildAdminApi } from './app';
import { loadAdminEnv } from './env';

await runHttpService({
  name: 'admin-api',
  loadEnv: loadAdminEnv,
  port: (env) => env.ADMIN_API_PORT,
  build: buildAdminApi,
});
