import type { Database } from '../client';
import { createAnalyticsRepository } from './analytics';
import { createApiKeyRepository } from './api-keys';
import { createArchiveEntryRepository } from './archive-entries';
import { createAuditLogRepository } from './audit-log';
import { createBatchRepository } from './batches';
import { createCredentialRepository } from './credentials';
import { createDownloadRepository } from './downloads';
import { createFeatureFlagRepository } from './feature-flags';
import { createFilenameHistoryRepository } from './filename-history';
import { createImageRepository } from './images';
import { createPaymentRepository } from './payments';
import { createQuotaCreditRepository } from './quota-credits';
import { createSessionRepository } from './sessions';
import { createSubscriptionRepository } from './subscriptions';
import { createUploadRejectionRepository } from './upload-rejections';
import { createUserIdentityRepository } from './user-identities';
import { createUserRepository } from './users';
import { createWebhookEventRepository } from './webhook-events';
import { createWebhookRepository } from './webhooks';

/** Every repository over one database, for a composition root. */
export function createRepositories(db: Database) {
  return {
    analytics: createAnalyticsRepository(db),
    apiKeys: createApiKeyRepository(db),
    archiveEntries: createArchiveEntryRepository(db),
    auditLog: createAuditLogRepository(db),
    batches: createBatchRepository(db),
    credentials: createCredentialRepository(db),
    downloads: createDownloadRepository(db),
    featureFlags: createFeatureFlagRepository(db),
    filenameHistory: createFilenameHistoryRepository(db),
    images: createImageRepository(db),
    payments: createPaymentRepository(db),
    quotaCredits: createQuotaCreditRepository(db),
    sessions: createSessionRepository(db),
    subscriptions: createSubscriptionRepository(db),
    uploadRejections: createUploadRejectionRepository(db),
    userIdentities: createUserIdentityRepository(db),
    users: createUserRepository(db),
    webhookEvents: createWebhookEventRepository(db),
    webhooks: createWebhookRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
