export {
  type CreateDbOptions,
  checkDb,
  createDb,
  type Database,
  type DbClient,
  type Executor,
  type Transaction,
} from './client';
export { createDatabase, dropDatabase } from './databases';
export { migrateDatabase } from './migrate';
export { InvalidCursorError, type Page, type PageParams } from './pagination';
export * from './repositories/analytics';
export * from './repositories/api-keys';
export * from './repositories/archive-entries';
export * from './repositories/audit-log';
export * from './repositories/batches';
export * from './repositories/create-repositories';
export * from './repositories/credentials';
export * from './repositories/downloads';
export * from './repositories/feature-flags';
export * from './repositories/filename-history';
export * from './repositories/images';
export * from './repositories/payments';
export * from './repositories/quota-credits';
export * from './repositories/sessions';
export * from './repositories/subscriptions';
export type { UpdateCondition } from './repositories/update-condition';
export * from './repositories/upload-rejections';
export * from './repositories/user-identities';
export * from './repositories/users';
export * from './repositories/webhook-events';
export * from './repositories/webhooks';
export {
  DOWNLOAD_KINDS,
  type DownloadKind,
  FILENAME_SOURCES,
  type FilenameSource,
} from './schema';
export * from './unique-violation';
