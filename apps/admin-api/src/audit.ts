import { principalOf } from '@renamer/auth';
import type { AuditLogRepository, Executor, NewAuditEntry } from '@renamer/db';
import type { FastifyRequest } from 'fastify';

export type AdminActionEntry = Omit<NewAuditEntry, 'actorId' | 'requestId'>;

/**
 * Writes what the admin behind `request` did, with the request's id. Pass the action's transaction, so the
 * entry exists exactly when the change does; actions outside the database are recorded once they succeeded.
 */
export async function recordAdminAction(
  auditLog: Pick<AuditLogRepository, 'append'>,
  request: FastifyRequest,
  entry: AdminActionEntry,
  tx?: Executor,
): Promise<void> {
  await auditLog.append({ ...entry, actorId: principalOf(request).user.id, requestId: request.id }, tx);
}
