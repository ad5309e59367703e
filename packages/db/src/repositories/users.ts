import type { Plan, Role } from '@renamer/contracts';
import { quotaPeriod } from '@renamer/domain';
import { and, eq, ilike, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { escapeLikePattern } from '../like-pattern';
import { keysetPage, type Page, type PageParams } from '../pagination';
import { apiKeys, batches, sessions, users } from '../schema';
import { apiKeyIsActive } from './api-keys';
import { creditsIn } from './quota-credits';
import { sessionIsActive } from './sessions';
import { userColumns } from './user-columns';

export type User = Omit<typeof users.$inferSelect, 'usagePeriod' | 'usageCount' | 'emailVerified'>;
export type ProfileUpdate = Partial<Pick<User, 'displayName' | 'template' | 'instructions'>>;

export interface NewUser {
  provider: string;
  providerSubject: string;
  displayName: string;
  /** SHA-256 of the trimmed, lower-cased email, lowercase hex. */
  emailHash: string;
  plan?: Plan;
  quota?: number;
  role?: Role;
}

export interface SignInProfile {
  provider: string;
  providerSubject: string;
  /** Used only when the user is created: a name the user changed later is kept. */
  displayName: string;
  emailHash: string;
  /** The provider says the email is verified (kept with the hash, which only then may join another identity). */
  emailVerified?: boolean;
  /** Quota of a new user (default 50); an existing user's quota is left alone. */
  quota?: number;
  /** Promote to admin (the email is in ADMIN_EMAILS). Never demotes. */
  grantAdmin?: boolean;
}

export interface AccountUpdate {
  plan?: Plan;
  quota?: number;
  role?: Role;
  stripeCustomerId?: string | null;
}

export interface UserListParams extends PageParams {
  id?: string;
  /** Case-insensitive substring of the display name. */
  search?: string;
  emailHash?: string;
  plan?: Plan;
  role?: Role;
  banned?: boolean;
}

export interface QuotaUsage {
  quota: number;
  used: number;
  periodStart: Date;
  periodEnd: Date;
}

/** `usage_period` is a date column: the first day of the counted quota period, as `YYYY-MM-DD`. */
const periodDate = (periodStart: Date) => periodStart.toISOString().slice(0, 10);

/** The counter's value for the period starting at `periodStart`: a counter of an earlier period counts as zero. */
function usageIn(periodStart: Date) {
  return sql<number>`(case when ${users.usagePeriod} >= ${periodDate(periodStart)}::date then ${users.usageCount} else 0 end)`;
}

/**
 * What the person has used of the period: the counter less the images given back in the same period (an image
 * that failed for good through the service's fault), never below zero. `usage` is the counter's expression.
 */
function usedAfterCredits(usage: SQL, userId: string, periodStart: Date, periodEnd: Date) {
  return sql<number>`greatest(${usage} - ${creditsIn(userId, periodStart, periodEnd)}, 0)`;
}

export function createUserRepository(db: Database) {
  async function findById(id: string, tx?: Executor): Promise<User | null> {
    const [row] = await (tx ?? db).select(userColumns).from(users).where(eq(users.id, id));
    return row ?? null;
  }

  async function updateWhereId(
    id: string,
    values: Partial<typeof users.$inferInsert>,
    tx?: Executor,
  ): Promise<User | null> {
    const [row] = await (tx ?? db).update(users).set(values).where(eq(users.id, id)).returning(userColumns);
    return row ?? null;
  }

  return {
    findById,

    async create(input: NewUser, tx?: Executor): Promise<User> {
      const [row] = await (tx ?? db).insert(users).values(input).returning(userColumns);
      return row!;
    },

    async findByProviderSubject(provider: string, providerSubject: string, tx?: Executor): Promise<User | null> {
      const [row] = await (tx ?? db)
        .select(userColumns)
        .from(users)
        .where(and(eq(users.provider, provider), eq(users.providerSubject, providerSubject)));
      return row ?? null;
    },

    async findByStripeCustomerId(stripeCustomerId: string, tx?: Executor): Promise<User | null> {
      const [row] = await (tx ?? db)
        .select(userColumns)
        .from(users)
        .where(eq(users.stripeCustomerId, stripeCustomerId));
      return row ?? null;
    },

    /** The user, with their row locked until `tx` ends: changes to one account go one at a time. */
    async lockById(id: string, tx: Executor): Promise<User | null> {
      const [row] = await tx.select(userColumns).from(users).where(eq(users.id, id)).for('update');
      return row ?? null;
    },

    /** The same, with the user's row locked until `tx` ends: changes to one customer's billing go one at a time. */
    async lockByStripeCustomerId(stripeCustomerId: string, tx: Executor): Promise<User | null> {
      const [row] = await tx
        .select(userColumns)
        .from(users)
        .where(eq(users.stripeCustomerId, stripeCustomerId))
        .for('update');
      return row ?? null;
    },

    /** Creates the user on first sign-in, otherwise refreshes the email hash; one statement either way. */
    async upsertOnSignIn(profile: SignInProfile, tx?: Executor): Promise<{ user: User; created: boolean }> {
      const [row] = await (tx ?? db)
        .insert(users)
        .values({
          provider: profile.provider,
          providerSubject: profile.providerSubject,
          displayName: profile.displayName,
          emailHash: profile.emailHash,
          emailVerified: profile.emailVerified === true,
          quota: profile.quota,
          role: profile.grantAdmin ? 'admin' : 'user',
        })
        .onConflictDoUpdate({
          target: [users.provider, users.providerSubject],
          set: {
            emailHash: profile.emailHash,
            emailVerified: profile.emailVerified === true,
            role: profile.grantAdmin ? 'admin' : sql`${users.role}`,
          },
        })
        // xmax is 0 only on a freshly inserted row version.
        .returning({ ...userColumns, created: sql<boolean>`(xmax = 0)` });
      const { created, ...user } = row!;
      return { user, created };
    },

    /** The fields given (undefined leaves one as it is; null clears a default). */
    async updateProfile(id: string, profile: ProfileUpdate, tx?: Executor): Promise<User | null> {
      const { displayName, template, instructions } = profile;
      return updateWhereId(id, { displayName, template, instructions }, tx);
    },

    async updateAccount(id: string, update: AccountUpdate, tx?: Executor): Promise<User | null> {
      if (Object.values(update).every((value) => value === undefined)) return findById(id, tx);
      return updateWhereId(id, update, tx);
    },

    async ban(id: string, reason: string, now: Date, tx?: Executor): Promise<User | null> {
      return updateWhereId(id, { bannedAt: now, banReason: reason }, tx);
    },

    async unban(id: string, tx?: Executor): Promise<User | null> {
      return updateWhereId(id, { bannedAt: null, banReason: null }, tx);
    },

    /** Deletes the user and, by cascade, everything they own; payments and audit entries stay. */
    async delete(id: string, tx?: Executor): Promise<boolean> {
      const deleted = await (tx ?? db).delete(users).where(eq(users.id, id)).returning({ id: users.id });
      return deleted.length > 0;
    },

    async list(params: UserListParams = {}, tx?: Executor): Promise<Page<User>> {
      return keysetPage(
        (tx ?? db).select(userColumns).from(users).$dynamic(),
        users,
        params,
        'desc',
        params.id ? eq(users.id, params.id) : undefined,
        params.search ? ilike(users.displayName, `%${escapeLikePattern(params.search)}%`) : undefined,
        params.emailHash ? eq(users.emailHash, params.emailHash) : undefined,
        params.plan ? eq(users.plan, params.plan) : undefined,
        params.role ? eq(users.role, params.role) : undefined,
        params.banned === undefined ? undefined : params.banned ? isNotNull(users.bannedAt) : isNull(users.bannedAt),
      );
    },

    /**
     * Counts `count` images against this month's quota in one conditional UPDATE, so concurrent
     * reservations can never together exceed it (each waits for the row lock, then re-checks).
     * The counter restarts when the stored month is older than `now`'s.
     * Returns the month's new usage, or null when the quota would be exceeded (or the user is unknown).
     */
    async reserveQuota(userId: string, count: number, now: Date, tx?: Executor): Promise<number | null> {
      if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a non-negative integer');
      const { periodStart, periodEnd } = quotaPeriod(now);
      const usedThisMonth = usageIn(periodStart);
      const [row] = await (tx ?? db)
        .update(users)
        .set({
          usagePeriod: sql`greatest(${users.usagePeriod}, ${periodDate(periodStart)}::date)`,
          usageCount: sql`${usedThisMonth} + ${count}::integer`,
        })
        .where(
          and(
            eq(users.id, userId),
            sql`${usedAfterCredits(usedThisMonth, userId, periodStart, periodEnd)} + ${count}::integer <= ${users.quota}`,
          ),
        )
        // RETURNING sees the row as updated: its counter already counts this reservation.
        .returning({ used: usedAfterCredits(sql`${users.usageCount}`, userId, periodStart, periodEnd) });
      return row?.used ?? null;
    },

    /** What an operator looks at beside the account: its batches, and its sessions and keys still usable. */
    async holdings(userId: string, now: Date, tx?: Executor) {
      const [row] = await (tx ?? db)
        .select({
          // The user's id as a parameter: drizzle writes the select list's columns without their table.
          batches: sql<number>`(select count(*) from ${batches} where ${batches.userId} = ${userId})::integer`,
          activeSessions: sql<number>`(select count(*) from ${sessions} where ${sessions.userId} = ${userId} and ${sessionIsActive(now)})::integer`,
          activeApiKeys: sql<number>`(select count(*) from ${apiKeys} where ${apiKeys.userId} = ${userId} and ${apiKeyIsActive(now)})::integer`,
        })
        .from(users)
        .where(eq(users.id, userId));
      return row ?? null;
    },

    async getUsage(userId: string, now: Date, tx?: Executor): Promise<QuotaUsage | null> {
      const { periodStart, periodEnd } = quotaPeriod(now);
      const [row] = await (tx ?? db)
        .select({
          quota: users.quota,
          used: usedAfterCredits(usageIn(periodStart), userId, periodStart, periodEnd),
        })
        .from(users)
        .where(eq(users.id, userId));
      return row ? { quota: row.quota, used: row.used, periodStart, periodEnd } : null;
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
