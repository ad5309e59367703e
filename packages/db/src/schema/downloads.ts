import type { DownloadOptions } from '@renamer/contracts';
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, uuid } from 'drizzle-orm/pg-core';
import { batches } from './batches';
import { createdAt, id, timestamptz, updatedAt } from './columns';
import { downloadKindEnum } from './enums';
import { images } from './images';
import { users } from './users';

export const downloads = pgTable(
  'downloads',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Null once the batch or image is deleted: the record stays in the person's list and the analytics for
    // DOWNLOAD_HISTORY_DAYS, while its link stops working (serving it finds nothing to send).
    batchId: uuid('batch_id').references(() => batches.id, { onDelete: 'set null' }),
    imageId: uuid('image_id').references(() => images.id, { onDelete: 'set null' }),
    kind: downloadKindEnum('kind').notNull(),
    approvedOnly: boolean('approved_only').notNull().default(false),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Bytes actually sent; null until the download has been served. */
    bytes: bigint('bytes', { mode: 'number' }),
    /** What the copies were made with (embed, strip, resize, format, quality, manifest). */
    options: jsonb('options').$type<DownloadOptions>().notNull().default(sql`'{}'::jsonb`),
    /** The entries a ZIP holds (1 for an image). */
    entries: integer('entries'),
    /** When the last byte went out. */
    completedAt: timestamptz('completed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('downloads_user_id_idx').on(table.userId),
    index('downloads_batch_id_idx').on(table.batchId),
    index('downloads_image_id_idx').on(table.imageId),
    index('downloads_expires_at_idx').on(table.expiresAt),
    check('downloads_zip_names_no_image', sql`${table.kind} = 'image' or ${table.imageId} is null`),
  ],
);
