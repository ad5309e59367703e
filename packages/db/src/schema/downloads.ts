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
    // Cascade: a link to deleted content must stop working, and its record has nothing left to describe.
    batchId: uuid('batch_id').references(() => batches.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id').references(() => images.id, { onDelete: 'cascade' }),
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
    check(
      'downloads_target_matches_kind',
      sql`(${table.kind} = 'zip' and ${table.batchId} is not null) or (${table.kind} = 'image' and ${table.imageId} is not null)`,
    ),
  ],
);
