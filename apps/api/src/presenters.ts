import type { ApiKey } from '@renamer/db';

const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

export const toApiKeySummary = (key: ApiKey) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  createdAt: key.createdAt.toISOString(),
  expiresAt: isoOrNull(key.expiresAt),
  lastUsedAt: isoOrNull(key.lastUsedAt),
});
