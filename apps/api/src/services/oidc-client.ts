import * as oidc from 'openid-client';

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Plain-http issuers (the development provider) are refused unless allowed. */
  allowInsecure: boolean;
}

export interface PendingSignIn {
  state: string;
  codeVerifier: string;
}

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  /** The provider's `email_verified`; undefined when it does not say. */
  emailVerified: boolean | undefined;
  name: string | undefined;
}

/**
 * Authorization code + PKCE + state against any OpenID provider found by discovery. Discovery runs at
 * the first sign-in (and again after a failure), so the API starts even while the provider is down.
 */
export function createOidcClient(options: OidcClientOptions) {
  let configuration: Promise<oidc.Configuration> | undefined;
  const configure = () => {
    configuration ??= oidc
      .discovery(
        new URL(options.issuer),
        options.clientId,
        options.clientSecret,
        undefined,
        options.allowInsecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error) => {
        configuration = undefined;
        throw error;
      });
    return configuration;
  };

  return {
    async start(): Promise<{ url: URL; pending: PendingSignIn }> {
      const config = await configure();
      const pending = { state: oidc.randomState(), codeVerifier: oidc.randomPKCECodeVerifier() };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
      });
      return { url, pending };
    },

    /** Exchanges the code (checking state, PKCE and issuer) and reads the userinfo endpoint. */
    async finish(callbackUrl: URL, pending: PendingSignIn): Promise<VerifiedIdentity> {
      const config = await configure();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
      });
      const subject = tokens.claims()?.sub;
      if (!subject) throw new Error('the ID token has no subject');
      // With conformant ID tokens only `sub` is in the token; email and name come from userinfo.
      const info = await oidc.fetchUserInfo(config, tokens.access_token, subject);
      return {
        issuer: config.serverMetadata().issuer,
        subject,
        email: typeof info.email === 'string' ? info.email : undefined,
        emailVerified: typeof info.email_verified === 'boolean' ? info.email_verified : undefined,
        name: typeof info.name === 'string' ? info.name : undefined,
      };
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
