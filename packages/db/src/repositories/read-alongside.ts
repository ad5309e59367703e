import { and, eq, sql } from 'drizzle-orm';
import { batches, users } from '../schema';
import { type BatchStatusRow, imageCountsOfBatch } from './batches';

/**
 * A read made by the very statement that checks a credential, so that the hottest authenticated read (a batch's
 * status, polled by scripts) takes one database round trip instead of two. It is joined on the user the
 * credential names: nobody else's rows can come back, and nothing is used unless the credential holds.
 */
export interface ReadAlongside {
  /** The batch whose status and counts to read. */
  batchStatus: string;
}

export interface ReadAlongsideResult {
  /** Null when the batch does not exist or is someone else's. */
  batchStatus: BatchStatusRow | null;
}

/**
 * How a credential query joins a batch's status (`batchStatusFields`), after its users: the batch named by the `batchId` placeholder when it is
 * the credential's user's, then its counts (zeros without a batch).
 */
export const batchStatusJoins = {
  batchOfUser: and(eq(batches.id, sql.placeholder('batchId')), eq(batches.userId, users.id))!,
  imageCounts: imageCountsOfBatch,
};

/** A credential row carrying a batch's status, as the credential with its user and the read alongside. */
export function splitAlongside<Row extends { batch: BatchStatusRow['batch'] | null; counts: BatchStatusRow['counts'] }>(
  row: Row,
): Omit<Row, 'batch' | 'counts'> & { alongside: ReadAlongsideResult } {
  const { batch, counts, ...credential } = row;
  // drizzle gives a left-joined table's columns as null when there is no such row.
  return { ...credential, alongside: { batchStatus: batch ? { batch, counts } : null } };
}
