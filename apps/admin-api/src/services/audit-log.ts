import type { AuditLogQuery } from '@renamer/contracts';
import type { AuditLogRepository } from '@renamer/db';
import type { z } from 'zod';

/** What admins did, newest first. */
export function createAuditLogService(deps: { auditLog: Pick<AuditLogRepository, 'list'> }) {
  return {
    async list(query: z.output<typeof AuditLogQuery>) {
      const { since, until, ...filters } = query;
      const page = await deps.auditLog.list({
        ...filters,
        ...(since ? { since: new Date(since) } : {}),
        ...(until ? { until: new Date(until) } : {}),
      });
      return {
        items: page.items.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
        nextCursor: page.nextCursor,
      };
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;
