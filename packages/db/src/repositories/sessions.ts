import { and, eq, getTableColumns, gt, isNull, lt, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { sessions, users } from '../schema';
import { userColumns } from './user-columns';
import type { User } from './users';

export type Session = typeof sessions.$inferSelect;

export interface NewSession {
  userId: string;
  expiresAt: Date;
  userAgent?: string | null;
  ip?: string | null;
}

/**
 * The one rule for a session that still counts: not revoked and not yet expired at `now` (a Date, or a
 * placeholder in a prepared statement). Whether its user is banned is a separate check.
 */
export const sessionIsActive = (now: Date | Placeholder): SQL =>
  and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now))!;

/**
 * The condition of every lookup by session, for a prepared statement: the session whose id is the `id` placeholder,
 * active at the `now` placeholder.
 */
export const activeSessionWithId = () =>
  and(eq(sessions.id, sql.placeholder('id')), sessionIsActive(sql.placeholder('now')))!;

/** What every lookup by session reads of it, here or joined onto another read. */
export const sessionColumns = getTableColumns(sessions);

/** Built once: this runs on every request that presents a session cookie. */
const activeById = (executor: Executor) =>
  executor
    .select({ session: sessionColumns, user: userColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(activeSessionWithId())
    .prepare('session_active_by_id');

export function createSessionRepository(db: Database) {
  const activeByIdOnPool = activeById(db);
  return {
    async create(input: NewSession, tx?: Executor): Promise<Session> {
      const [row] = await (tx ?? db).insert(sessions).values(input).returning();
      return row!;
    },

    /** The session with its user when it is neither revoked nor expired; checking a ban is the caller's call. */
    async findActive(id: string, now: Date, tx?: Executor): Promise<{ session: Session; user: User } | null> {
      const query = tx ? activeById(tx) : activeByIdOnPool;
      const [row] = await query.execute({ id, now: now.toISOString() });
      return row ?? null;
    },

    async touch(id: string, now: Date, tx?: Executor): Promise<void> {
      await (tx ?? db).update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
    },

    /** Returns false when the session does not exist or was already revoked. */
    async revoke(id: string, now: Date, tx?: Executor): Promise<boolean> {
      const revoked = await (tx ?? db)
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return revoked.length > 0;
    },

    /** Deletes sessions that expired or were revoked before `cutoff`; returns how many. */
    async deleteEndedBefore(cutoff: Date, tx?: Executor): Promise<number> {
      const deleted = await (tx ?? db)
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, cutoff), lt(sessions.revokedAt, cutoff)))
        .returning({ id: sessions.id });
      return deleted.length;
    },

    /** Returns how many sessions were revoked. */
    async revokeAllForUser(userId: string, now: Date, tx?: Executor): Promise<number> {
      const revoked = await (tx ?? db)
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return revoked.length;
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
