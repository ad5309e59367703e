import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevIdp, type DevIdp } from '../src';
import { CookieJar, signInThroughDevIdp } from '../src/testing';
import {
  authorizationRequest,
  type Discovery,
  discover,
  exchangeCode,
  fetchUserinfo,
  type TestClient,
} from './oidc-client';

const client: TestClient = {
  clientId: 'test-client',
  clientSecret: 'test-client-secret',
  redirectUri: 'http://localhost:1/api/auth/callback',
};

let idp: DevIdp;
let discovery: Discovery;

beforeAll(async () => {
  idp = createDevIdp({
    issuer: 'http://localhost',
    port: 0,
    clients: [{ clientId: client.clientId, clientSecret: client.clientSecret, redirectUris: [client.redirectUri] }],
  });
  discovery = await discover(await idp.listen());
});

afterAll(async () => {
  await idp.close();
});

const stopAtRedirectUri = (location: URL) => location.href.startsWith(client.redirectUri);

async function signIn(email: string, name: string): Promise<Record<string, unknown>> {
  const request = authorizationRequest(discovery, client);
  const { stoppedAt } = await signInThroughDevIdp({ startUrl: request.url, email, name, stopAt: stopAtRedirectUri });
  expect(stoppedAt?.searchParams.get('state')).toBe(request.state);
  expect(stoppedAt?.searchParams.get('iss')).toBe(idp.issuer);
  const code = stoppedAt?.searchParams.get('code');
  expect(code).toBeTruthy();

  const tokenResponse = await exchangeCode(discovery, client, code!, request.codeVerifier);
  expect(tokenResponse.status).toBe(200);
  const tokens = (await tokenResponse.json()) as { access_token: string; id_token: string };
  expect(tokens.id_token).toBeTruthy();
  return fetchUserinfo(discovery, tokens.access_token);
}

describe('dev-idp authorization code flow', () => {
  it('serves discovery for the bound port with the openid, email and profile scopes and S256 PKCE', () => {
    expect(discovery.issuer).toBe(idp.issuer);
    expect(idp.issuer).toMatch(/^http:\/\/localhost:\d+$/);
    expect(discovery.scopes_supported).toEqual(['openid', 'email', 'profile']);
    expect(discovery.claims_supported).toEqual(expect.arrayContaining(['sub', 'email', 'email_verified', 'name']));
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('signs in through the form and returns sub, email and name from userinfo', async () => {
    const userinfo = await signIn('ada@example.com', 'Ada Lovelace');
    expect(userinfo).toEqual({
      sub: expect.stringMatching(/^[0-9a-f]{32}$/),
      email: 'ada@example.com',
      email_verified: true,
      name: 'Ada Lovelace',
    });
  });

  it('gives the same email the same subject, whatever its case, and another email another subject', async () => {
    const first = await signIn('grace@example.com', 'Grace');
    const again = await signIn(' Grace@Example.COM ', 'Grace Hopper');
    const other = await signIn('alan@example.com', 'Alan');
    expect(again.sub).toBe(first.sub);
    expect(again.name).toBe('Grace Hopper');
    expect(other.sub).not.toBe(first.sub);
  });

  it('signs a jar holding a provider session back in as the same identity without the form', async () => {
    const cookieJar = new CookieJar();
    const subjects: unknown[] = [];
    for (const email of ['first@example.com', 'second@example.com']) {
      const request = authorizationRequest(discovery, client);
      const { stoppedAt } = await signInThroughDevIdp({
        startUrl: request.url,
        email,
        name: 'Returning',
        stopAt: stopAtRedirectUri,
        cookieJar,
      });
      const code = stoppedAt?.searchParams.get('code');
      const tokenResponse = await exchangeCode(discovery, client, code!, request.codeVerifier);
      const { access_token } = (await tokenResponse.json()) as { access_token: string };
      subjects.push((await fetchUserinfo(discovery, access_token)).sub);
    }
    expect(subjects[1]).toBe(subjects[0]);
  });

  it('refuses an authorization request without PKCE', async () => {
    const request = authorizationRequest(discovery, client, false);
    const { stoppedAt } = await signInThroughDevIdp({
      startUrl: request.url,
      email: 'ada@example.com',
      name: 'Ada',
      stopAt: stopAtRedirectUri,
    });
    expect(stoppedAt?.searchParams.get('error')).toBe('invalid_request');
    expect(stoppedAt?.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(stoppedAt?.searchParams.has('code')).toBe(false);
  });

  it('refuses to exchange a code with the wrong verifier', async () => {
    const request = authorizationRequest(discovery, client);
    const { stoppedAt } = await signInThroughDevIdp({
      startUrl: request.url,
      email: 'ada@example.com',
      name: 'Ada',
      stopAt: stopAtRedirectUri,
    });
    const response = await exchangeCode(discovery, client, stoppedAt!.searchParams.get('code')!, 'x'.repeat(43));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('reports a rejected form instead of looping', async () => {
    const request = authorizationRequest(discovery, client);
    await expect(
      signInThroughDevIdp({ startUrl: request.url, email: 'not-an-email', name: 'Ada', stopAt: stopAtRedirectUri }),
    ).rejects.toThrow('Enter a valid email address.');
  });
});
