import type { NewAuditEntry } from '@renamer/db';

/** The admin acting and the request they act in: what the audit log records of who did a change. */
export interface Actor {
  actorId: string;
  requestId: string;
}

export type AdminActionEntry = Omit<NewAuditEntry, 'actorId' | 'requestId'>;

/** The audit entry of what `actor` did. */
export const entryBy = ({ actorId, requestId }: Actor, entry: AdminActionEntry): NewAuditEntry => ({
  ...entry,
  actorId,
  requestId,
});
