import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv, portVariable, serviceEnvSchema } from '../src';

const schema = serviceEnvSchema({ API_PORT: portVariable(3000) });

function configErrorOf(env: NodeJS.ProcessEnv): ConfigError {
  try {
    parseEnv(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('environment validation', () => {
  it('runs on embedded defaults with no variables at all', () => {
    const env = parseEnv(schema, {});
    expect(env).toMatchObject({
      API_PORT: 3000,
      STORAGE_DRIVER: 'fs',
      REDIS_PREFIX: 'renamer:',
      NODE_ENV: 'development',
    });
  });

  it('names the variable whose value is bad', () => {
    const error = configErrorOf({ API_PORT: 'seventy', DATABASE_URL: 'mysql://x' });
    expect(error.issues.map((i) => i.variable).sort()).toEqual(['API_PORT', 'DATABASE_URL']);
    expect(error.message).toContain('API_PORT');
  });

  it('requires S3 credentials when the S3 driver is chosen', () => {
    const error = configErrorOf({ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://127.0.0.1:9000' });
    expect(error.issues.map((i) => i.variable).sort()).toEqual(['S3_ACCESS_KEY', 'S3_SECRET_KEY']);
  });

  it('refuses the development session secret in production', () => {
    expect(configErrorOf({ NODE_ENV: 'production' }).issues).toEqual([
      { variable: 'SESSION_SECRET', message: 'must be set in production' },
    ]);
  });
});
