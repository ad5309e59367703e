import type { AnnounceCredentialsEnded, Principal } from '@renamer/auth';
import { AppError, DISPLAY_NAME_MAX_LENGTH, DisplayName, PLAN_QUOTAS } from '@renamer/contracts';
import type { SessionRepository, User, UserRepository } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import type { VerifiedIdentity } from './oidc-client';

export const DEFAULT_DISPLAY_NAME = 'Renamer user';

/** The provider's name when it is one we accept (cut to length), else the neutral default the user can change. */
function displayNameFrom(name: string | undefined): string {
  const parsed = DisplayName.safeParse(name?.trim().slice(0, DISPLAY_NAME_MAX_LENGTH));
  return parsed.success ? parsed.data : DEFAULT_DISPLAY_NAME;
}

export interface SignInDeps {
  users: Pick<UserRepository, 'upsertOnSignIn'>;
  sessions: Pick<SessionRepository, 'create' | 'revoke'>;
  /** Closes the sockets opened with a session that ended, on every instance. */
  announceEnded: AnnounceCredentialsEnded;
  adminEmailHashes: ReadonlySet<string>;
  sessionTtlSeconds: number;
  now?: () => Date;
}

/**
 * First sign-in creates the user (plan basic, its quota, role user, or admin when the email is in
 * ADMIN_EMAILS); every sign-in opens a session, and signing out revokes it. Only the subject, a display
 * name and the email's hash are kept.
 */
export function createSignInService(deps: SignInDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    async signIn(identity: VerifiedIdentity, client: { userAgent?: string; ip?: string }) {
      if (!identity.email) {
        throw new AppError('unauthenticated', 'The identity provider did not share an email address.');
      }
      if (identity.emailVerified === false) {
        throw new AppError(
          'unauthenticated',
          'Verify your email address with your identity provider, then sign in again.',
        );
      }
      const hash = emailHash(identity.email);
      const { user, created } = await deps.users.upsertOnSignIn({
        provider: identity.issuer,
        providerSubject: identity.subject,
        displayName: displayNameFrom(identity.name),
        emailHash: hash,
        quota: PLAN_QUOTAS.basic,
        // Only a provider's word that the address is verified makes it an admin address.
        grantAdmin: identity.emailVerified === true && deps.adminEmailHashes.has(hash),
      });
      if (user.bannedAt) throw new AppError('banned', 'This account has been banned.');
      const session = await deps.sessions.create({
        userId: user.id,
        expiresAt: new Date(now().getTime() + deps.sessionTtlSeconds * 1000),
        userAgent: client.userAgent?.slice(0, 512) ?? null,
        ip: client.ip ?? null,
      });
      return { user: user as User, session, created };
    },

    /** Ends the caller's session at once; an API-key caller has none to end. */
    async signOut(principal: Principal) {
      if (principal.via !== 'session') return;
      await deps.sessions.revoke(principal.sessionId, now());
      await deps.announceEnded({ credentialId: principal.sessionId });
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
