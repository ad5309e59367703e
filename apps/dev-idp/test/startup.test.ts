import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDevIdp, devIdpOptionsFromEnv } from '../src';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('dev-idp startup', () => {
  it('refuses to start when NODE_ENV=production', () => {
    vi.stubEnv('NODE_ENV', 'production');
    expect(() => createDevIdp(devIdpOptionsFromEnv({}))).toThrow(/refuses to start when NODE_ENV=production/);
  });

  it('defaults to port 3002 and one renamer-dev client calling back to the local API', () => {
    expect(devIdpOptionsFromEnv({})).toEqual({
      issuer: 'http://localhost:3002',
      port: 3002,
      clients: [
        {
          clientId: 'renamer-dev',
          clientSecret: 'renamer-dev-secret',
          redirectUris: ['http://localhost:3000/api/auth/callback'],
        },
      ],
    });
  });

  it('takes the port, client and public URL from the environment', () => {
    const options = devIdpOptionsFromEnv({
      DEV_IDP_PORT: '4002',
      OIDC_CLIENT_ID: 'my-client',
      OIDC_CLIENT_SECRET: 'my-secret',
      PUBLIC_URL: 'http://renamer.test:8080/',
    });
    expect(options.issuer).toBe('http://localhost:4002');
    expect(options.clients).toEqual([
      {
        clientId: 'my-client',
        clientSecret: 'my-secret',
        redirectUris: ['http://renamer.test:8080/api/auth/callback'],
      },
    ]);
  });

  it('names a bad variable', () => {
    expect(() => devIdpOptionsFromEnv({ DEV_IDP_PORT: 'seventy' })).toThrow(/DEV_IDP_PORT/);
  });

  it('rejects an issuer that is not a plain http origin', () => {
    expect(() => createDevIdp({ issuer: 'http://localhost:3002/idp', clients: [] })).toThrow(/origin/);
  });
});
