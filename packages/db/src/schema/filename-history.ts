import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { filenameSourceEnum } from './enums';
import { images } from './images';

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
    createdAt: createdAt(),
  },
  (table) => [index('filename_history_image_id_created_at_idx').on(table.imageId, table.createdAt, table.id)],
);
