import { randomUUID } from 'node:crypto';
import { migrateDatabase } from '@renamer/db';
import postgres from 'postgres';

/**
 * A migrated database of its own beside the run's, for tests whose workers act on every row they find
 * (the reconciler re-queues any waiting image): other test files' rows stay out of their reach.
 */
export async function createIsolatedDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `renamer_iso_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const adminUrl = new URL(baseUrl);
  adminUrl.pathname = '/postgres';
  const admin = postgres(adminUrl.href, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.href);
  return {
    url: url.href,
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
