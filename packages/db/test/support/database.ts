import { createHash, randomUUID } from 'node:crypto';
import { createDb, createUserRepository, type DbClient, type NewUser, type User } from '../../src';

export function testDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must point at a migrated test database');
  return url;
}

export function connectTestDb(max = 4): DbClient {
  return createDb(testDatabaseUrl(), { max });
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A user no other test knows about, so tests can share the database. */
export function createTestUser(client: DbClient, overrides: Partial<NewUser> = {}): Promise<User> {
  return createUserRepository(client.db).create({
    provider: 'https://idp.test',
    providerSubject: randomUUID(),
    displayName: 'Test User',
    emailHash: sha256Hex(`${randomUUID()}@example.test`),
    ...overrides,
  });
}

/** The order keyset pagination promises: created_at, then id, both descending. */
export function newestFirst<T extends { createdAt: Date; id: string }>(rows: readonly T[]): T[] {
  return [...rows].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
}
