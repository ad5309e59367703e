import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { type ClientMetadata, type JWK, Provider } from 'oidc-provider';
import type { AccountStore } from './accounts';
import { interactionPath } from './interaction';

const HOUR_IN_SECONDS = 60 * 60;
const DAY_IN_SECONDS = 24 * HOUR_IN_SECONDS;

export interface DevIdpClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface ProviderSecrets {
  signingKey: JWK;
  cookieKey: string;
}

export function generateProviderSecrets(): ProviderSecrets {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey: JWK = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' };
  return { signingKey, cookieKey: randomBytes(32).toString('base64url') };
}

export function createProvider(
  issuer: string,
  clients: readonly DevIdpClient[],
  accounts: AccountStore,
  secrets: ProviderSecrets,
): Provider {
  return new Provider(issuer, {
    clients: clients.map(toClientMetadata),
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile'],
    claims: { email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    findAccount: accounts.findAccount,
    jwks: { keys: [secrets.signingKey] },
    cookies: { keys: [secrets.cookieKey] },
    // Fixed lifetimes: the library's default lifetime functions print a notice each time they are used.
    ttl: {
      AuthorizationCode: 60,
      AccessToken: HOUR_IN_SECONDS,
      IdToken: HOUR_IN_SECONDS,
      Interaction: HOUR_IN_SECONDS,
      Session: DAY_IN_SECONDS,
      Grant: DAY_IN_SECONDS,
    },
  });
}

function toClientMetadata(client: DevIdpClient): ClientMetadata {
  return {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    redirect_uris: client.redirectUris,
    grant_types: ['authorization_code'],
    response_types: ['code'],
  };
}
