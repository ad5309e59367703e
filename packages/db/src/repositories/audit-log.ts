import { eq, gte, lt } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { keysetPage, type Page, type PageParams } from '../pagination';
import { auditLog } from '../schema';

export type AuditEntry = typeof auditLog.$inferSelect;

export interface NewAuditEntry {
  actorId: string | null;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  details?: Record<string, unknown>;
  /** The target before and after the action (the fields it changed, at least). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  requestId?: string | null;
}

export interface AuditListParams extends PageParams {
  actorId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  /** Inclusive. */
  since?: Date;
  /** Exclusive. */
  until?: Date;
}

export function createAuditLogRepository(db: Database) {
  return {
    /** Pass the action's transaction, so the entry exists exactly when the action does. */
    async append(entry: NewAuditEntry, tx?: Executor): Promise<AuditEntry> {
      const [row] = await (tx ?? db).insert(auditLog).values(entry).returning();
      return row!;
    },

    /** Newest first. */
    async list(params: AuditListParams = {}, tx?: Executor): Promise<Page<AuditEntry>> {
      return keysetPage(
        (tx ?? db).select().from(auditLog).$dynamic(),
        auditLog,
        params,
        'desc',
        params.actorId ? eq(auditLog.actorId, params.actorId) : undefined,
        params.action ? eq(auditLog.action, params.action) : undefined,
        params.targetType ? eq(auditLog.targetType, params.targetType) : undefined,
        params.targetId ? eq(auditLog.targetId, params.targetId) : undefined,
        params.since ? gte(auditLog.createdAt, params.since) : undefined,
        params.until ? lt(auditLog.createdAt, params.until) : undefined,
      );
    },
  };
}

export type AuditLogRepository = ReturnType<typeof createAuditLogRepository>;
