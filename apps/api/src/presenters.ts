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

export const toApiKeySummary = (key: ApiKey) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  createdAt: iso(key.createdAt),
  expiresAt: isoOrNull(key.expiresAt),
  lastUsedAt: isoOrNull(key.lastUsedAt),
});
