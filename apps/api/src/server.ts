import { runHttpService } from '@renamer/service-kit';
import { buildApi } from './app';
import { loadApiEnv } from './env';

await runHttpService({ name: 'api', loadEnv: loadApiEnv, port: (env) => env.API_PORT, build: buildApi });
