import { eq } from 'drizzle-orm';
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
}

export interface AuditListParams extends PageParams {
  actorId?: string;
  action?: string;
}

export function createAuditLogRepository(db: Database) {
  return {
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
      );
    },
  };
}

export type AuditLogRepository = ReturnType<typeof createAuditLogRepository>;
