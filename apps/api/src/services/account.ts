import { AppError } from '@renamer/contracts';
import type { UserRepository } from '@renamer/db';
import { quotaRemaining } from '@renamer/domain';
import type { CallLog } from '@renamer/service-kit';
import { type ObjectStore, userObjectPrefix } from '@renamer/storage';

export interface AccountDeps {
  users: Pick<UserRepository, 'getUsage' | 'updateProfile' | 'delete'>;
  store: Pick<ObjectStore, 'deletePrefix'>;
  now?: () => Date;
}

export function createAccountService(deps: AccountDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    async quota(userId: string) {
      const usage = await deps.users.getUsage(userId, now());
      if (!usage) throw new AppError('not_found', 'This account no longer exists.');
      return { ...usage, remaining: quotaRemaining(usage.quota, usage.used) };
    },

    async rename(userId: string, displayName: string) {
      const user = await deps.users.updateProfile(userId, { displayName });
      if (!user) throw new AppError('not_found', 'This account no longer exists.');
      return user;
    },

    /**
     * The rows go first (cascading to sessions, keys, batches and images), so the account is gone at
     * once; objects follow. Objects a failure here leaves behind are only logged.
     */
    async delete(userId: string, log: CallLog) {
      if (!(await deps.users.delete(userId))) throw new AppError('not_found', 'This account no longer exists.');
      await deps.store.deletePrefix(userObjectPrefix(userId)).catch((err) => {
        log.error({ err, userId }, 'objects of a deleted account were not all removed');
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
