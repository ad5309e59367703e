import { AppError } from '@renamer/contracts';
import type { AuditLogRepository, Database, User, UserRepository } from '@renamer/db';
import { quotaRemaining } from '@renamer/domain';
import type { CallLog } from '@renamer/service-kit';
import { type ObjectStore, userObjectPrefix } from '@renamer/storage';

export interface AccountDeps {
  db: Pick<Database, 'transaction'>;
  users: Pick<UserRepository, 'getUsage' | 'updateProfile' | 'delete' | 'ban' | 'unban'>;
  auditLog: Pick<AuditLogRepository, 'append'>;
  store: Pick<ObjectStore, 'deletePrefix'>;
  now?: () => Date;
}

/** An admin acting on another user's account. */
export interface AdminAction {
  actorId: string;
  userId: string;
}

const gone = () => new AppError('not_found', 'This account no longer exists.');
const noSuchUser = () => new AppError('not_found', 'There is no user with this id.');

/**
 * A user's account as the API (its owner) and the admin API (operators) change it. Bans and unbans are
 * written to the audit log in the same transaction as the change, so neither exists without the other.
 */
export function createAccountService(deps: AccountDeps) {
  const now = deps.now ?? (() => new Date());

  return {
    async quota(userId: string) {
      const usage = await deps.users.getUsage(userId, now());
      if (!usage) throw gone();
      return { ...usage, remaining: quotaRemaining(usage.quota, usage.used) };
    },

    async rename(userId: string, displayName: string): Promise<User> {
      const user = await deps.users.updateProfile(userId, { displayName });
      if (!user) throw gone();
      return user;
    },

    /**
     * The rows go first (cascading to sessions, keys, batches and images), so the account is gone at
     * once; objects follow. Objects a failure here leaves behind are only logged.
     */
    async delete(userId: string, log: CallLog): Promise<void> {
      if (!(await deps.users.delete(userId))) throw gone();
      log.info({ userId }, 'account deleted');
      await deps.store.deletePrefix(userObjectPrefix(userId)).catch((err) => {
        log.error({ err, userId }, 'objects of a deleted account were not all removed');
      });
    },

    /** The user's sessions and API keys are refused (403 `banned`) from their next request; they are kept. */
    async ban({ actorId, userId }: AdminAction, reason: string, log: CallLog): Promise<User> {
      if (actorId === userId) throw new AppError('conflict', 'An admin cannot ban their own account.');
      const user = await deps.db.transaction(async (tx) => {
        const banned = await deps.users.ban(userId, reason, now(), tx);
        if (!banned) throw noSuchUser();
        await deps.auditLog.append(
          { actorId, action: 'user.ban', targetType: 'user', targetId: userId, details: { reason } },
          tx,
        );
        return banned;
      });
      log.info({ actorId, userId, reason }, 'user banned');
      return user;
    },

    /** The user's sessions and API keys work again. */
    async unban({ actorId, userId }: AdminAction, log: CallLog): Promise<User> {
      const user = await deps.db.transaction(async (tx) => {
        const unbanned = await deps.users.unban(userId, tx);
        if (!unbanned) throw noSuchUser();
        await deps.auditLog.append({ actorId, action: 'user.unban', targetType: 'user', targetId: userId }, tx);
        return unbanned;
      });
      log.info({ actorId, userId }, 'user unbanned');
      return user;
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
export type QuotaStatus = Awaited<ReturnType<AccountService['quota']>>;
