import { databaseUrl, ensureDatabase } from './databases';
import type { PostgresServer } from './postgres';

const APP_DATABASE = 'renamer';

/** DATABASE_URL as given, else the `renamer` database of the server found, created on first use. */
export async function appDatabase(server: PostgresServer): Promise<{ url: string; label: string }> {
  if (server.configuredUrl) return { url: server.configuredUrl, label: 'DATABASE_URL' };
  await ensureDatabase(server.serverUrl, APP_DATABASE);
  return { url: databaseUrl(server.serverUrl, APP_DATABASE), label: `database ${APP_DATABASE}` };
}
