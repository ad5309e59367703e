import { AuditLogList, AuditLogQuery } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuditLogService } from '../../services/audit-log';

/** What admins did, newest first. */
export async function auditLogRoutes(app: FastifyInstance, { auditLog }: { auditLog: AuditLogService }) {
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
    async (request) => auditLog.list(request.query),
  );
}
