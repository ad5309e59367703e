import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { users } from './users';

/**
 * A second way the same person signs in (GitHub beside the OIDC identity the user row was made with, or the other
 * way round): matched by the verified email's hash, so one person has one account.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerSubject: text('provider_subject').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('user_identities_provider_subject_key').on(table.provider, table.providerSubject),
    index('user_identities_user_id_idx').on(table.userId),
  ],
);
