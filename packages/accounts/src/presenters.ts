import type { Profile } from '@renamer/contracts';
import type { User } from '@renamer/db';
import type { QuotaStatus } from './account-service';

export const toProfile = (user: User): Profile => ({
  id: user.id,
  displayName: user.displayName,
  plan: user.plan,
  role: user.role,
  quota: user.quota,
  template: user.template,
  instructions: user.instructions,
  createdAt: user.createdAt.toISOString(),
});

export const toQuota = (plan: User['plan'], usage: QuotaStatus) => ({
  plan,
  quota: usage.quota,
  used: usage.used,
  remaining: usage.remaining,
  periodStart: usage.periodStart.toISOString(),
  periodEnd: usage.periodEnd.toISOString(),
});
