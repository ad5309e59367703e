import { createHash } from 'node:crypto';

/** Emails are never stored: only this hash of the trimmed, lower-cased address, as lowercase hex. */
export function emailHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}
