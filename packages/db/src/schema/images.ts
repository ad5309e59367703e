import type { AnalysisStepRecord, ImageMetadata, ImageSafety, SeoScore, VisionTag } from '@renamer/contracts';
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { UNIQUE_FILE_PER_USER, UNIQUE_FILENAME_PER_BATCH } from '../unique-violation';
import { batches } from './batches';
import { createdAt, id, timestamptz, updatedAt } from './columns';
import { imageStatusEnum } from './enums';
import { users } from './users';

export const images = pgTable(
  'images',
  {
    id: id(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    // Denormalised from the batch so ownership checks and duplicate detection need no join.
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: imageStatusEnum('status').notNull().default('queued'),
    originalFilename: text('original_filename').notNull(),
    proposedFilename: text('proposed_filename'),
    filename: text('filename'),
    approvedAt: timestamptz('approved_at'),
    checksum: text('checksum').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    mimeType: text('mime_type').notNull(),
    storageKey: text('storage_key').notNull(),
    metadata: jsonb('metadata').$type<ImageMetadata>(),
    visionTags: jsonb('vision_tags').$type<VisionTag[]>().notNull().default(sql`'[]'::jsonb`),
    altText: text('alt_text'),
    /** The score of the current filename. */
    seo: jsonb('seo').$type<SeoScore>(),
    safety: jsonb('safety').$type<ImageSafety>(),
    /** 64-bit difference hash of the pixels (16 hex digits): near-duplicates in a batch share a name's stem. */
    perceptualHash: text('perceptual_hash'),
    analysisSteps: jsonb('analysis_steps').$type<AnalysisStepRecord[]>().notNull().default(sql`'[]'::jsonb`),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** Uploaded again on purpose (`duplicates=allow`): another image of the person may hold the same bytes. */
    reupload: boolean('reupload').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('images_batch_id_status_idx').on(table.batchId, table.status),
    index('images_batch_id_created_at_id_idx').on(table.batchId, table.createdAt, table.id),
    // Unique, so two workers proposing names at once cannot give one batch the same filename twice.
    uniqueIndex(UNIQUE_FILENAME_PER_BATCH).on(table.batchId, table.filename),
    // Unique: an upload racing another with the same file cannot give a user that image twice, unless the person
    // asked for it again on purpose.
    uniqueIndex(UNIQUE_FILE_PER_USER).on(table.userId, table.checksum).where(sql`not ${table.reupload}`),
    index('images_user_id_checksum_idx').on(table.userId, table.checksum),
    index('images_status_updated_at_idx').on(table.status, table.updatedAt),
    index('images_created_at_idx').on(table.createdAt),
    uniqueIndex('images_storage_key_key').on(table.storageKey),
    check('images_checksum_format', sql`${table.checksum} ~ '^[0-9a-f]{64}$'`),
    check('images_size_non_negative', sql`${table.size} >= 0`),
    check('images_attempts_non_negative', sql`${table.attempts} >= 0`),
    check('images_perceptual_hash_format', sql`${table.perceptualHash} ~ '^[0-9a-f]{16}$'`),
  ],
);
