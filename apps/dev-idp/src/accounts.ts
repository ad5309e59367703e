import { createHash } from 'node:crypto';
import type { Account, FindAccount } from 'oidc-provider';

export interface DevIdentity {
  email: string;
  name: string;
}

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Prefixed so the subject is never equal to a relying party's plain SHA-256 of the email.
export function subjectForEmail(email: string): string {
  return createHash('sha256')
    .update(`dev-idp:${normalizeEmail(email)}`)
    .digest('hex')
    .slice(0, 32);
}

export class AccountStore {
  readonly #identitiesBySubject = new Map<string, DevIdentity>();

  signIn(identity: DevIdentity): string {
    const subject = subjectForEmail(identity.email);
    this.#identitiesBySubject.set(subject, identity);
    return subject;
  }

  readonly findAccount: FindAccount = (_ctx, subject) => {
    const identity = this.#identitiesBySubject.get(subject);
    if (!identity) return undefined;
    const account: Account = {
      accountId: subject,
      claims: () => ({ sub: subject, email: identity.email, email_verified: true, name: identity.name }),
    };
    return account;
  };
}
