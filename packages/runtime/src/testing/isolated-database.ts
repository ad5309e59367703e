import { randomUUID } from 'node:crypto';
import { createDatabase, dropDatabase, migrateDatabase } from '@renamer/db';

/**
 * A migrated database of its own on the server of `serverUrl`: the test run's (`vitest.global-setup.ts`), or
 * one beside it for tests whose workers act on every row they find (the reconciler re-queues any waiting
 * image), so other test files' rows stay out of their reach.
 */
export async function createIsolatedDatabase(
  serverUrl: string,
  name = `renamer_iso_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
): Promise<{ url: string; drop(): Promise<void> }> {
  const url = await createDatabase(serverUrl, name);
  await migrateDatabase(url);
  return { url, drop: () => dropDatabase(serverUrl, name) };
}
