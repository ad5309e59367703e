import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevIdp, type DevIdp, devIdpOptionsFromEnv } from '../src';
import { makeTestCertificate, signInThroughDevIdp, type TestCertificate } from '../src/testing';

const redirectUri = 'https://localhost:1/api/auth/callback';
let dir: string;
let certificate: TestCertificate;
let idp: DevIdp;
let issuer: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dev-idp-https-'));
  certificate = makeTestCertificate(dir);
  idp = createDevIdp({
    issuer: 'https://localhost',
    port: 0,
    tls: certificate,
    clients: [{ clientId: 'test', clientSecret: 'test-secret', redirectUris: [redirectUri] }],
  });
  issuer = await idp.listen();
});

afterAll(async () => {
  await idp?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dev-idp over HTTPS', () => {
  it('announces an https issuer and https endpoints to a client that trusts its certificate', async () => {
    expect(issuer).toMatch(/^https:\/\/localhost:\d+$/);
    const response = await certificate.fetch(`${issuer}/.well-known/openid-configuration`);
    const discovery = (await response.json()) as Record<string, string>;
    expect(discovery.issuer).toBe(issuer);
    expect(discovery.authorization_endpoint).toMatch(new RegExp(`^${issuer}/`));
    expect(discovery.token_endpoint).toMatch(new RegExp(`^${issuer}/`));
  });

  it('serves the certificate for 127.0.0.1 too', async () => {
    const response = await certificate.fetch(`${issuer.replace('localhost', '127.0.0.1')}/health/live`);
    expect(response.status).toBe(200);
  });

  it('is refused by a client that does not trust the certificate', async () => {
    await expect(fetch(`${issuer}/health/live`)).rejects.toThrow();
  });

  it('signs a person in through the form and back to the client with a code', async () => {
    const discovery = (await (await certificate.fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
      authorization_endpoint: string;
    };
    const start = new URL(discovery.authorization_endpoint);
    start.search = new URLSearchParams({
      response_type: 'code',
      client_id: 'test',
      redirect_uri: redirectUri,
      scope: 'openid email',
      state: 'state-1',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const { stoppedAt } = await signInThroughDevIdp({
      startUrl: start,
      email: 'ada@example.com',
      name: 'Ada',
      fetch: certificate.fetch,
      stopAt: (location) => location.href.startsWith(redirectUri),
    });
    expect(stoppedAt?.searchParams.get('code')).toBeTruthy();
    expect(stoppedAt?.searchParams.get('iss')).toBe(issuer);
  });
});

describe('the HTTPS settings', () => {
  it('reads the issuer and the certificate files from the environment', () => {
    const options = devIdpOptionsFromEnv({
      DEV_IDP_ISSUER: 'https://localhost:4443',
      DEV_IDP_TLS_CERT_FILE: certificate.certFile,
      DEV_IDP_TLS_KEY_FILE: certificate.keyFile,
    });
    expect(options.issuer).toBe('https://localhost:4443');
    expect(options.port).toBe(4443);
    expect(String(options.tls?.cert)).toBe(certificate.cert);
    expect(String(options.tls?.key)).toBe(certificate.key);
  });

  it('names the missing or unreadable certificate of an https issuer, and a port the issuer contradicts', () => {
    expect(() => devIdpOptionsFromEnv({ DEV_IDP_ISSUER: 'https://localhost:4443' })).toThrow(
      /DEV_IDP_TLS_CERT_FILE: required for an https issuer/,
    );
    const tls = { DEV_IDP_TLS_CERT_FILE: join(dir, 'missing.pem'), DEV_IDP_TLS_KEY_FILE: certificate.keyFile };
    expect(() => devIdpOptionsFromEnv({ DEV_IDP_ISSUER: 'https://localhost:4443', ...tls })).toThrow(
      /DEV_IDP_TLS_CERT_FILE: cannot be read/,
    );
    expect(() => devIdpOptionsFromEnv({ DEV_IDP_ISSUER: 'http://localhost:4000', DEV_IDP_PORT: '4001' })).toThrow(
      /DEV_IDP_PORT: differs from DEV_IDP_ISSUER's port 4000/,
    );
  });

  it('refuses a certificate for a plain http issuer, and an https issuer without one', () => {
    expect(() => createDevIdp({ issuer: 'https://localhost:4443', clients: [] })).toThrow(/plain HTTP/);
    expect(() => createDevIdp({ issuer: 'http://localhost:4443', tls: certificate, clients: [] })).toThrow(/HTTPS/);
  });
});
