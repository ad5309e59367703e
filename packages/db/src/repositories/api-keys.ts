import { and, desc, eq, gt, isNull, lt, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { apiKeys, users } from '../schema';
import { userColumns } from './user-columns';
import type { User } from './users';

/** An API key as the application sees it: the hash never leaves the database layer. */
export type ApiKey = Omit<typeof apiKeys.$inferSelect, 'keyHash'>;

export interface NewApiKey {
  userId: string;
  name: string;
  prefix: string;
  /** SHA-256 of the key, hex. */
  keyHash: string;
  expiresAt?: Date | null;
}

/** A key's columns as the application sees it (`ApiKey`: never its hash). */
export const apiKeyColumns = {
  id: apiKeys.id,
  userId: apiKeys.userId,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  expiresAt: apiKeys.expiresAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  createdAt: apiKeys.createdAt,
  updatedAt: apiKeys.updatedAt,
};

// Writing last_used_at on every request would turn each authenticated read into a write.
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The one rule for an API key that still counts: not revoked and, if it expires, not yet expired at `now`
 * (a Date, or a placeholder in a prepared statement). Whether its user is banned is a separate check.
 */
export const apiKeyIsActive = (now: Date | Placeholder): SQL =>
  and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)))!;

/**
 * The condition of every lookup by key, for a prepared statement: the key whose hash is the `keyHash` placeholder,
 * active at the `now` placeholder.
 */
export const activeApiKeyWithHash = () =>
  and(eq(apiKeys.keyHash, sql.placeholder('keyHash')), apiKeyIsActive(sql.placeholder('now')))!;

/** Built once: this runs on every request that presents an API key. */
const activeByHash = (executor: Executor) =>
  executor
    .select({ apiKey: apiKeyColumns, user: userColumns })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(activeApiKeyWithHash())
    .prepare('api_key_active_by_hash');

export function createApiKeyRepository(db: Database) {
  const activeByHashOnPool = activeByHash(db);
  return {
    async create(input: NewApiKey, tx?: Executor): Promise<ApiKey> {
      const [row] = await (tx ?? db).insert(apiKeys).values(input).returning(apiKeyColumns);
      return row!;
    },

    /** The key with its user when it is neither revoked nor expired; checking a ban is the caller's call. */
    async findActiveByHash(keyHash: string, now: Date, tx?: Executor): Promise<{ apiKey: ApiKey; user: User } | null> {
      const query = tx ? activeByHash(tx) : activeByHashOnPool;
      const [row] = await query.execute({ keyHash, now: now.toISOString() });
      return row ?? null;
    },

    /** Records use at most once a minute per key. */
    async touchLastUsed(id: string, now: Date, tx?: Executor): Promise<void> {
      await (tx ?? db)
        .update(apiKeys)
        .set({ lastUsedAt: now })
        .where(
          and(
            eq(apiKeys.id, id),
            or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS))),
          ),
        );
    },

    /** The user's keys that are not revoked, newest first. */
    async list(userId: string, tx?: Executor): Promise<ApiKey[]> {
      return (tx ?? db)
        .select(apiKeyColumns)
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    },

    /** Deletes the key only if it belongs to the user; false otherwise. */
    async delete(id: string, userId: string, tx?: Executor): Promise<boolean> {
      const deleted = await (tx ?? db)
        .delete(apiKeys)
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
        .returning({ id: apiKeys.id });
      return deleted.length > 0;
    },
  };
}

export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
