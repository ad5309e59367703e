import type { AccountService } from '@renamer/accounts';
import { toPaymentView } from '@renamer/billing';
import {
  type AdminUser,
  type AdminUserDetail,
  type AdminUserListQuery,
  AppError,
  type UpdateUserBody,
} from '@renamer/contracts';
import type { PaymentRepository, QuotaCreditRepository, UserListParams, UserRepository } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import type { CallLog } from '@renamer/runtime';
import { z } from 'zod';
import { toAdminUser } from '../presenters';
import type { Actor } from './audit';

export interface UserServiceDeps {
  /** Bans, unbans and account changes, each with its audit entry in one transaction. */
  accounts: Pick<AccountService, 'ban' | 'unban' | 'update' | 'quota'>;
  users: Pick<UserRepository, 'list' | 'findById' | 'holdings'>;
  payments: Pick<PaymentRepository, 'listForUser'>;
  quotaCredits: Pick<QuotaCreditRepository, 'listForUser'>;
}

const noSuchUser = () => new AppError('not_found', 'There is no user with this id.');

/** What `q` is: an id, an email (looked up by its hash, as emails are never stored), or part of a name. */
function searchOf(q: string | undefined): Pick<UserListParams, 'id' | 'emailHash' | 'search'> {
  if (!q) return {};
  if (z.uuid().safeParse(q).success) return { id: q.toLowerCase() };
  if (q.includes('@')) return { emailHash: emailHash(q) };
  return { search: q };
}

/** Other users' accounts. Each change is written to the audit log, before and after, with the admin who made it. */
export function createUserService({ accounts, users, payments, quotaCredits }: UserServiceDeps) {
  const actionOn = (actor: Actor, userId: string) => ({ ...actor, userId });

  return {
    async list(query: z.output<typeof AdminUserListQuery>) {
      const { q, ...filters } = query;
      const page = await users.list({ ...filters, ...searchOf(q) });
      return { items: page.items.map(toAdminUser), nextCursor: page.nextCursor };
    },

    /** The user with this month's usage, their batches, sessions, API keys, latest payments and quota credits. */
    async detail(id: string): Promise<AdminUserDetail> {
      const [user, holdings, latest, credits] = await Promise.all([
        users.findById(id),
        users.holdings(id, new Date()),
        payments.listForUser(id, { limit: 10 }),
        quotaCredits.listForUser(id),
      ]);
      if (!user || !holdings) throw noSuchUser();
      const { quota, used, remaining, periodStart, periodEnd } = await accounts.quota(id);
      return {
        ...toAdminUser(user),
        usage: { quota, used, remaining, periodStart: periodStart.toISOString(), periodEnd: periodEnd.toISOString() },
        ...holdings,
        payments: latest.items.map(toPaymentView),
        quotaCredits: credits.map(({ imageId, reason, createdAt }) => ({
          imageId,
          reason,
          createdAt: createdAt.toISOString(),
        })),
      };
    },

    /** Plan, quota or role. */
    update: async (actor: Actor, userId: string, change: z.output<typeof UpdateUserBody>, log: CallLog) =>
      toAdminUser(await accounts.update(actionOn(actor, userId), change, log)),

    ban: async (actor: Actor, userId: string, reason: string, log: CallLog): Promise<AdminUser> =>
      toAdminUser(await accounts.ban(actionOn(actor, userId), reason, log)),

    unban: async (actor: Actor, userId: string, log: CallLog): Promise<AdminUser> =>
      toAdminUser(await accounts.unban(actionOn(actor, userId), log)),
  };
}

export type UserService = ReturnType<typeof createUserService>;
