import { and, eq } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { afterCursor, keysetOrder, type Page, type PageParams, pageSize, toPage } from '../pagination';
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
      const size = pageSize(params.limit);
      const rows = await (tx ?? db)
        .select()
        .from(auditLog)
        .where(
          and(
            params.actorId ? eq(auditLog.actorId, params.actorId) : undefined,
            params.action ? eq(auditLog.action, params.action) : undefined,
            afterCursor(auditLog, params.cursor, 'desc'),
          ),
        )
        .orderBy(...keysetOrder(auditLog, 'desc'))
        .limit(size + 1);
      return toPage(rows, size);
    },
  };
}

export type AuditLogRepository = ReturnType<typeof createAuditLogRepository>;
