import { toProfile } from '@renamer/accounts';
import type { AdminUser } from '@renamer/contracts';
import type { User } from '@renamer/db';

export const toAdminUser = (user: User): AdminUser => ({
  ...toProfile(user),
  bannedAt: user.bannedAt?.toISOString() ?? null,
  banReason: user.banReason,
});
