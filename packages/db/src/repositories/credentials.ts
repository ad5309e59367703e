import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../client';
import { apiKeys, sessions, users } from '../schema';
import { apiKeyIsActive } from './api-keys';
import { sessionIsActive } from './sessions';

/** One array parameter, whatever the number of ids, so the statement's text never changes. */
const isAnyOf = (column: PgColumn, ids: readonly string[]): SQL => sql`${column} = any(${sql.param(ids)}::uuid[])`;

/** Sessions and API keys looked at together, for connections that re-check what they were opened with. */
export function createCredentialRepository(db: Database) {
  return {
    /**
     * Of these sessions and API keys, the ids of those neither revoked nor expired whose user exists and is
     * not banned, in one statement.
     */
    async stillActive(ids: { sessionIds: readonly string[]; apiKeyIds: readonly string[] }, now: Date) {
      const activeSessions = db
        .select({ id: sessions.id })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(isAnyOf(sessions.id, ids.sessionIds), sessionIsActive(now), isNull(users.bannedAt)));
      const activeKeys = db
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .innerJoin(users, eq(users.id, apiKeys.userId))
        .where(and(isAnyOf(apiKeys.id, ids.apiKeyIds), apiKeyIsActive(now), isNull(users.bannedAt)));
      const rows = await activeSessions.unionAll(activeKeys);
      return new Set(rows.map((row) => row.id));
    },
  };
}

export type CredentialRepository = ReturnType<typeof createCredentialRepository>;
