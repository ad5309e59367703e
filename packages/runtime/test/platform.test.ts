import { describe, expect, it } from 'vitest';
import { createPlatform, runHealthChecks, serviceEnvSchema } from '../src';
import { freePort, testServiceEnv } from '../src/testing';

async function readiness(overrides: Record<string, string>) {
  const env = serviceEnvSchema({}).parse({ ...testServiceEnv('platform'), ...overrides });
  const platform = createPlatform(env);
  try {
    return await runHealthChecks(platform.healthChecks);
  } finally {
    await platform.close();
  }
}

describe('platform readiness against real dependencies', () => {
  it('is ready when PostgreSQL, Redis and storage answer', async () => {
    const result = await readiness({});
    expect(result).toMatchObject({ status: 'ok', failed: [] });
    expect(Object.keys(result.checks).sort()).toEqual(['db', 'redis', 'storage']);
  });

  it('names the database when PostgreSQL does not answer', async () => {
    const result = await readiness({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/x` });
    expect(result.failed).toEqual(['db']);
  });

  it('names Redis when Redis does not answer', async () => {
    const result = await readiness({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(result.failed).toEqual(['redis']);
  });

  it('names storage when the S3 endpoint does not answer', async () => {
    const result = await readiness({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
      S3_ACCESS_KEY: 'test',
      S3_SECRET_KEY: 'test-secret',
    });
    expect(result.failed).toEqual(['storage']);
  });
});
