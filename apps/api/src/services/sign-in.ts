import type { AnnounceCredentialsEnded, Principal } from '@renamer/auth';
import { AppError, DISPLAY_NAME_MAX_LENGTH, DisplayName, PLAN_QUOTAS } from '@renamer/contracts';
import type { SessionRepository, User, UserIdentityRepository, UserRepository } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import type { VerifiedIdentity } from './oidc-client';

export const DEFAULT_DISPLAY_NAME = 'Renamer user';

/** The provider's name when it is one we accept (cut to length), else the neutral default the user can change. */
function displayNameFrom(name: string | undefined): string {
  const parsed = DisplayName.safeParse(name?.trim().slice(0, DISPLAY_NAME_MAX_LENGTH));
  return parsed.success ? parsed.data : DEFAULT_DISPLAY_NAME;
}

export interface SignInDeps {
  users: Pick<UserRepository, 'upsertOnSignIn' | 'updateAccount' | 'findByProviderSubject'>;
  identities: Pick<UserIdentityRepository, 'findUser' | 'findAccountToLink' | 'link'>;
  /**
   * The `provider` GitHub identities are stored under (GITHUB_BASE_URL's origin), when GitHub is configured: a
   * verified email joins a GitHub identity to the account of the other provider, and the other way round.
   */
  githubProvider?: string;
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

  /** Which accounts an identity of this provider may join: those of the other provider. */
  function linkableFor(provider: string) {
    if (!deps.githubProvider) return null;
    return provider === deps.githubProvider ? { notProvider: provider } : { provider: deps.githubProvider };
  }

  /**
   * The account of an identity that is not the one its `users` row was made with: one linked before, or the
   * account of the other provider under the same verified email (the identity is added to it). Null: the
   * identity is the row's own, or a new user.
   */
  async function signInLinked(
    identity: VerifiedIdentity,
    hash: string,
    grantAdmin: boolean,
  ): Promise<{ user: User; created: boolean } | null> {
    let user = await deps.identities.findUser(identity.issuer, identity.subject);
    if (!user) {
      const linkable = linkableFor(identity.issuer);
      if (!linkable || identity.emailVerified !== true) return null;
      // Signing in again with the provider an account was made with is no link.
      if (await deps.users.findByProviderSubject(identity.issuer, identity.subject)) return null;
      const candidate = await deps.identities.findAccountToLink(hash, linkable);
      if (!candidate) return null;
      await deps.identities.link(candidate.id, identity.issuer, identity.subject);
      user = await deps.identities.findUser(identity.issuer, identity.subject);
      if (!user) return null;
    }
    if (grantAdmin && user.role !== 'admin')
      user = (await deps.users.updateAccount(user.id, { role: 'admin' })) ?? user;
    return { user, created: false };
  }

  return {
    async signIn(identity: VerifiedIdentity, client: { userAgent?: string; ip?: string }) {
      if (!identity.email) {
        throw new AppError('unauthenticated', 'The identity provider did not share an email address.');
      }
      // With a second provider, an account is found by its email: an address its provider does not vouch for
      // could otherwise be claimed first and then receive the real owner's other sign-in.
      const mustBeVerified = deps.githubProvider !== undefined;
      if (identity.emailVerified === false || (mustBeVerified && identity.emailVerified !== true)) {
        throw new AppError(
          'unauthenticated',
          'Verify your email address with your identity provider, then sign in again.',
        );
      }
      const hash = emailHash(identity.email);
      // Only a provider's word that the address is verified makes it an admin address.
      const grantAdmin = identity.emailVerified === true && deps.adminEmailHashes.has(hash);
      const { user, created } =
        (await signInLinked(identity, hash, grantAdmin)) ??
        (await deps.users.upsertOnSignIn({
          provider: identity.issuer,
          providerSubject: identity.subject,
          displayName: displayNameFrom(identity.name),
          emailHash: hash,
          emailVerified: identity.emailVerified === true,
          quota: PLAN_QUOTAS.basic,
          grantAdmin,
        }));
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
