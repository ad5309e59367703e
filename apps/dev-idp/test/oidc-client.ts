import { createHash, randomBytes } from 'node:crypto';

export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  scopes_supported: string[];
  claims_supported: string[];
  code_challenge_methods_supported: string[];
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface AuthorizationRequest {
  url: URL;
  state: string;
  codeVerifier: string;
}

export async function discover(issuer: string): Promise<Discovery> {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`);
  return (await response.json()) as Discovery;
}

export function authorizationRequest(discovery: Discovery, client: TestClient, withPkce = true): AuthorizationRequest {
  const state = randomBytes(16).toString('base64url');
  const codeVerifier = randomBytes(32).toString('base64url');
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: 'openid email profile',
    state,
  }).toString();
  if (withPkce) {
    url.searchParams.set('code_challenge', createHash('sha256').update(codeVerifier).digest('base64url'));
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return { url, state, codeVerifier };
}

export async function exchangeCode(
  discovery: Discovery,
  client: TestClient,
  code: string,
  codeVerifier: string,
): Promise<Response> {
  const credentials = Buffer.from(
    `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
  ).toString('base64');
  return fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { authorization: `Basic ${credentials}` },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: codeVerifier,
    }),
  });
}

export async function fetchUserinfo(discovery: Discovery, accessToken: string): Promise<Record<string, unknown>> {
  const response = await fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}` } });
  if (!response.ok) throw new Error(`userinfo failed with ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}
