import { AppError, PLAN_QUOTAS } from '@renamer/contracts';
import type {
  AccountUpdate,
  AuditLogRepository,
  Database,
  ProfileUpdate,
  Transaction,
  User,
  UserRepository,
} from '@renamer/db';
import { acceptedTemplate, quotaRemaining } from '@renamer/domain';
import type { CallLog } from '@renamer/runtime';
import { type ObjectStore, userObjectPrefix } from '@renamer/storage';

export interface AccountDeps {
  db: Pick<Database, 'transaction'>;
  users: Pick<UserRepository, 'getUsage' | 'updateProfile' | 'delete' | 'ban' | 'unban' | 'updateAccount' | 'lockById'>;
  auditLog: Pick<AuditLogRepository, 'append'>;
  store: Pick<ObjectStore, 'deletePrefix'>;
  /** Closes, on every API instance, the sockets of an account that was banned or deleted. */
  announceEnded: (ended: { userId: string }) => Promise<void>;
  now?: () => Date;
}

/** An admin acting on another user's account, in a request the audit log names. */
export interface AdminAction {
  actorId: string;
  userId: string;
  requestId: string;
}

/** What an admin changes of an account, as the audit log keeps it before and after. */
const auditedFields = (user: User) => ({
  plan: user.plan,
  quota: user.quota,
  role: user.role,
  bannedAt: user.bannedAt?.toISOString() ?? null,
  banReason: user.banReason,
});

const gone = () => new AppError('not_found', 'This account no longer exists.');
const noSuchUser = () => new AppError('not_found', 'There is no user with this id.');

/**
 * A user's account as the API (its owner) and the admin API (operators) change it. Bans and unbans are
 * written to the audit log in the same transaction as the change, so neither exists without the other.
 */
export function createAccountService(deps: AccountDeps) {
  const now = deps.now ?? (() => new Date());

  /** The change and its audit entry (the user's row before and after) in one transaction, the row locked. */
  async function changeAudited(
    { actorId, userId, requestId }: AdminAction,
    action: string,
    change: (tx: Transaction) => Promise<User | null>,
    details?: Record<string, unknown>,
  ): Promise<User> {
    return deps.db.transaction(async (tx) => {
      const before = await deps.users.lockById(userId, tx);
      if (!before) throw noSuchUser();
      const after = (await change(tx))!;
      await deps.auditLog.append(
        {
          actorId,
          action,
          targetType: 'user',
          targetId: userId,
          before: auditedFields(before),
          after: auditedFields(after),
          requestId,
          ...(details ? { details } : {}),
        },
        tx,
      );
      return after;
    });
  }

  return {
    async quota(userId: string) {
      const usage = await deps.users.getUsage(userId, now());
      if (!usage) throw gone();
      return { ...usage, remaining: quotaRemaining(usage.quota, usage.used) };
    },

    /** The display name, and the naming template and model instructions new batches start from. */
    async updateProfile(userId: string, update: ProfileUpdate): Promise<User> {
      const user = await deps.users.updateProfile(userId, {
        ...update,
        // A default serves batches of any locale: English spells the check's words as most locales do.
        template: acceptedTemplate(update.template, 'en'),
        instructions: update.instructions === undefined ? undefined : update.instructions?.trim() || null,
      });
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
      await deps.announceEnded({ userId });
      await deps.store.deletePrefix(userObjectPrefix(userId)).catch((err) => {
        log.error({ err, userId }, 'objects of a deleted account were not all removed');
      });
    },

    /** The user's sessions and API keys are refused (403 `banned`) from their next request; they are kept. */
    /**
     * The user's sessions and API keys are refused (403 `banned`) from their next request, and their open
     * WebSockets are closed at once; the sessions and keys are kept.
     */
    async ban(action: AdminAction, reason: string, log: CallLog): Promise<User> {
      if (action.actorId === action.userId) throw new AppError('conflict', 'An admin cannot ban their own account.');
      const user = await changeAudited(action, 'user.ban', (tx) => deps.users.ban(action.userId, reason, now(), tx), {
        reason,
      });
      log.info({ ...action, reason }, 'user banned');
      await deps.announceEnded({ userId: action.userId });
      return user;
    },

    /** The user's sessions and API keys work again. */
    async unban(action: AdminAction, log: CallLog): Promise<User> {
      const user = await changeAudited(action, 'user.unban', (tx) => deps.users.unban(action.userId, tx));
      log.info(action, 'user unbanned');
      return user;
    },

    /**
     * Plan, quota and role. A plan without a quota brings the plan's quota; an admin cannot take the admin
     * role from their own account.
     */
    async update(action: AdminAction, change: AccountUpdate, log: CallLog): Promise<User> {
      if (action.actorId === action.userId && change.role === 'user') {
        throw new AppError('conflict', 'An admin cannot take the admin role from their own account.');
      }
      const update = { ...change, quota: change.quota ?? (change.plan && PLAN_QUOTAS[change.plan]) };
      const user = await changeAudited(action, 'user.update', (tx) =>
        deps.users.updateAccount(action.userId, update, tx),
      );
      log.info({ ...action, change: update }, 'user account changed');
      return user;
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
export type QuotaStatus = Awaited<ReturnType<AccountService['quota']>>;
