import {
  BATCH_STATUSES,
  FILENAME_SOURCES,
  type FilenameSource,
  IMAGE_STATUSES,
  PAYMENT_STATUSES,
  PLANS,
  ROLES,
} from '@renamer/contracts';
import { pgEnum } from 'drizzle-orm/pg-core';

export { FILENAME_SOURCES, type FilenameSource };

export const DOWNLOAD_KINDS = ['zip', 'image'] as const;
export type DownloadKind = (typeof DOWNLOAD_KINDS)[number];

export const planEnum = pgEnum('plan', PLANS);
export const roleEnum = pgEnum('role', ROLES);
export const batchStatusEnum = pgEnum('batch_status', BATCH_STATUSES);
export const imageStatusEnum = pgEnum('image_status', IMAGE_STATUSES);
export const paymentStatusEnum = pgEnum('payment_status', PAYMENT_STATUSES);
export const filenameSourceEnum = pgEnum('filename_source', FILENAME_SOURCES);
export const downloadKindEnum = pgEnum('download_kind', DOWNLOAD_KINDS);
