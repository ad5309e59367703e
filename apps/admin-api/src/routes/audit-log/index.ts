import { AuditLogList, AuditLogQuery } from '@renamer/contracts';
import type { AuditLogRepository } from '@renamer/db';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export interface AuditLogRoutesOptions {
  auditLog: Pick<AuditLogRepository, 'list'>;
}

/** What admins did, newest first. */
export async function auditLogRoutes(app: FastifyInstance, { auditLog }: AuditLogRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/audit-log',
    {
      schema: {
        tags: ['audit-log'],
        operationId: 'listAuditLog',
        summary: 'Admin actions, newest first, by admin, action, target and time',
        querystring: AuditLogQuery,
        response: { 200: AuditLogList },
        errors: ['invalid_cursor'],
      },
    },
    async (request) => {
      const { since, until, ...filters } = request.query;
      const page = await auditLog.list({
        ...filters,
        ...(since ? { since: new Date(since) } : {}),
        ...(until ? { until: new Date(until) } : {}),
      });
      return {
        items: page.items.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
        nextCursor: page.nextCursor,
      };
    },
  );
}
