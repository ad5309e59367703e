import { and, asc, eq, ne } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { userIdentities, users } from '../schema';
import { userColumns } from './user-columns';
import type { User } from './users';

/** Which accounts a new identity may join: those made with one provider, or with any provider but one. */
export type LinkableAccounts = { provider: string } | { notProvider: string };

/**
 * The second ways people sign in: an identity of another provider than the one their `users` row was made with.
 * The row's own provider and subject stay where they are; each further identity is one row here.
 */
export function createUserIdentityRepository(db: Database) {
  return {
    /** The user a further identity belongs to, or null when none has it. */
    async findUser(provider: string, providerSubject: string, tx?: Executor): Promise<User | null> {
      const [row] = await (tx ?? db)
        .select(userColumns)
        .from(userIdentities)
        .innerJoin(users, eq(users.id, userIdentities.userId))
        .where(and(eq(userIdentities.provider, provider), eq(userIdentities.providerSubject, providerSubject)));
      return row ?? null;
    },

    /**
     * The oldest account with this email hash that `linkable` allows and whose provider vouched for the email at
     * its last sign-in, or null.
     */
    async findAccountToLink(emailHash: string, linkable: LinkableAccounts, tx?: Executor): Promise<User | null> {
      const byProvider =
        'provider' in linkable ? eq(users.provider, linkable.provider) : ne(users.provider, linkable.notProvider);
      const [row] = await (tx ?? db)
        .select(userColumns)
        .from(users)
        .where(and(eq(users.emailHash, emailHash), eq(users.emailVerified, true), byProvider))
        .orderBy(asc(users.createdAt), asc(users.id))
        .limit(1);
      return row ?? null;
    },

    /** Adds the identity to the user; false when the identity already belongs to someone (a racing sign-in). */
    async link(userId: string, provider: string, providerSubject: string, tx?: Executor): Promise<boolean> {
      const rows = await (tx ?? db)
        .insert(userIdentities)
        .values({ userId, provider, providerSubject })
        .onConflictDoNothing({ target: [userIdentities.provider, userIdentities.providerSubject] })
        .returning({ id: userIdentities.id });
      return rows.length > 0;
    },
  };
}

export type UserIdentityRepository = ReturnType<typeof createUserIdentityRepository>;
