import { ConfigError } from '@renamer/runtime';
import { describe, expect, it } from 'vitest';
import { loadApiEnv } from '../src/env';

const variablesNamed = (env: NodeJS.ProcessEnv) => {
  try {
    loadApiEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((issue) => issue.variable);
    throw error;
  }
  return [];
};

describe('API configuration', () => {
  it('reads durations, email lists and origin lists', () => {
    const env = loadApiEnv({
      SESSION_TTL: '12h',
      ADMIN_EMAILS: ' ops@renamer.test , boss@renamer.test ',
      WS_ALLOWED_ORIGINS: 'https://app.renamer.test',
    });
    expect(env.SESSION_TTL).toBe(12 * 3600);
    expect(env.ADMIN_EMAILS).toEqual(['ops@renamer.test', 'boss@renamer.test']);
    expect(env.WS_ALLOWED_ORIGINS).toEqual(['https://app.renamer.test']);
    expect(loadApiEnv({}).SESSION_TTL).toBe(7 * 86_400);
  });

  it('names each bad variable', () => {
    expect(
      variablesNamed({ SESSION_TTL: 'a week', ADMIN_EMAILS: 'not-an-email', UPLOAD_MAX_FILES: '0' }).sort(),
    ).toEqual(['ADMIN_EMAILS', 'SESSION_TTL', 'UPLOAD_MAX_FILES']);
  });

  it('requires a real identity provider and secret in production', () => {
    expect(variablesNamed({ NODE_ENV: 'production' }).sort()).toEqual(['OIDC_ISSUER', 'SESSION_SECRET']);
    expect(
      variablesNamed({
        NODE_ENV: 'production',
        OIDC_ISSUER: 'https://accounts.google.com',
        SESSION_SECRET: 'x'.repeat(40),
      }),
    ).toEqual([]);
  });
});
