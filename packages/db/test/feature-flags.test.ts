import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createFeatureFlagRepository } from '../src';
import { connectTestDb } from './support/database';

const client = connectTestDb();
const flags = createFeatureFlagRepository(client.db);

afterAll(() => client.close());

describe('feature flag repository', () => {
  it('creates a flag, toggles it keeping its description, and lists it', async () => {
    const key = `test-flag-${randomUUID()}`;
    expect(await flags.get(key)).toBeNull();
    const created = await flags.upsert({ key, enabled: true, description: 'LLM keywords' });
    expect(created).toMatchObject({ key, enabled: true, description: 'LLM keywords' });

    const toggled = await flags.upsert({ key, enabled: false });
    expect(toggled).toMatchObject({ key, enabled: false, description: 'LLM keywords' });
    expect(await flags.upsert({ key, enabled: false, description: null })).toMatchObject({ description: null });

    await flags.upsert({ key: `${key}-b`, enabled: true });
    const listedKeys = (await flags.list()).map((flag) => flag.key);
    expect(listedKeys.indexOf(key)).toBeGreaterThanOrEqual(0);
    expect(listedKeys.indexOf(`${key}-b`)).toBe(listedKeys.indexOf(key) + 1);
  });
});
