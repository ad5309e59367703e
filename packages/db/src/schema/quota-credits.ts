import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz } from './columns';
import { images } from './images';
import { users } from './users';

/**
 * An image's count given back to the month's quota because it failed for good through the service's fault. One
 * per image (the unique index makes a failure reported twice credit once); kept when the image is deleted, as the
 * history admins see on the user.
 */
export const quotaCredits = pgTable(
  'quota_credits',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id').references(() => images.id, { onDelete: 'set null' }),
    /** Why the service was at fault ("analysis failed after 3 attempts"). */
    reason: text('reason').notNull(),
    /**
     * When the image was counted against the quota (its upload): the credit lowers that month's figure, also when
     * the image fails on the first of the next.
     */
    countedAt: timestamptz('counted_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('quota_credits_image_id_key').on(table.imageId),
    index('quota_credits_user_id_created_at_idx').on(table.userId, table.createdAt),
    index('quota_credits_user_id_counted_at_idx').on(table.userId, table.countedAt),
  ],
);
