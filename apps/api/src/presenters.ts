import type { QuotaStatus } from '@renamer/accounts';
import type { ApiKey, User } from '@renamer/db';

const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

export const toProfile = (user: User) => ({
  id: user.id,
  displayName: user.displayName,
  plan: user.plan,
  role: user.role,
  quota: user.quota,
  createdAt: iso(user.createdAt),
});

export const toQuota = (plan: User['plan'], usage: QuotaStatus) => ({
  plan,
  quota: usage.quota,
  used: usage.used,
  remaining: usage.remaining,
  periodStart: iso(usage.periodStart),
  periodEnd: iso(usage.periodEnd),
});

export const toApiKeySummary = (key: ApiKey) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  createdAt: iso(key.createdAt),
  expiresAt: isoOrNull(key.expiresAt),
  lastUsedAt: isoOrNull(key.lastUsedAt),
});
