import { bigint, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { filenameSourceEnum } from './enums';
import { images } from './images';
import { users } from './users';

/** Append-only: no updated_at. */
export const filenameHistory = pgTable(
  'filename_history',
  {
    id: id(),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    oldFilename: text('old_filename'),
    newFilename: text('new_filename').notNull(),
    source: filenameSourceEnum('source').notNull(),
    /** The user who made the change; null for the analyser (and once that user's account is gone). */
    by: uuid('by').references(() => users.id, { onDelete: 'set null' }),
    // The order changes were made in: an image's changes are serialised by its row lock, so a later change
    // always draws a larger number, even when its transaction began first (and created_at says otherwise).
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    createdAt: createdAt(),
  },
  (table) => [
    index('filename_history_image_id_created_at_idx').on(table.imageId, table.createdAt, table.id),
    index('filename_history_by_idx').on(table.by),
  ],
);
