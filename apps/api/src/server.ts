import { runHttpService } from '@renamer/http';
import { buildApi } from './app';
import { loadApiEnv } from './env';

await runHttpService({ name: 'api', loadEnv: loadApiEnv, port: (env) => env.API_PORT, build: buildApi });
