import { createLogger, createPlatform } from '@renamer/service-kit';
import { buildApi } from './app';
import { loadApiEnv } from './env';

export const OPENAPI_FILE = new URL('../../../docs/openapi.json', import.meta.url);

/** Builds the API (no connection is opened) and returns its OpenAPI document as committed text. */
export async function generateOpenApiDocument(): Promise<string> {
  const env = loadApiEnv({});
  const platform = createPlatform(env);
  const app = await buildApi({ env, logger: createLogger('openapi', 'silent'), platform });
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
    await platform.close();
  }
}
