import { createRepositories } from '@renamer/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeatureFlags, createPlatform, type FeatureFlags, type Platform, serviceEnvSchema } from '../src';
import { testServiceEnv } from '../src/testing';

let platform: Platform;
let repositories: ReturnType<typeof createRepositories>;
let prefix: string;
const opened: FeatureFlags[] = [];

beforeAll(() => {
  const env = serviceEnvSchema({}).parse(testServiceEnv('feature-flag-reads'));
  platform = createPlatform(env);
  repositories = createRepositories(platform.db.db);
  prefix = env.REDIS_PREFIX;
});
afterAll(async () => {
  await Promise.all(opened.map((flags) => flags.close()));
  await platform?.close();
});

/** One service's reader of the flags. */
function service(cacheMs: number) {
  const flags = createFeatureFlags({
    repository: repositories.featureFlags,
    redis: platform.redis,
    redisPrefix: prefix,
    cacheMs,
  });
  opened.push(flags);
  return flags;
}

describe('reading feature flags', () => {
  it('gives each flag its default until one is set, then follows a change made behind its back within its cache time', async () => {
    const flags = service(300);
    expect(await flags.isEnabled('llm-keywords')).toBe(true);
    expect(await flags.isEnabled('refuse-unsafe-images')).toBe(false);

    // Written straight into the table, announced to nobody: only the cache's end brings it in.
    await repositories.featureFlags.upsert({ key: 'llm-keywords', enabled: false });
    expect(await flags.isEnabled('llm-keywords')).toBe(true);
    await expect.poll(() => flags.isEnabled('llm-keywords'), { timeout: 2_000, interval: 50 }).toBe(false);
  });

  it('sees an announced change at once, however long it would otherwise trust what it read', async () => {
    const admin = service(60_000);
    const api = service(60_000);
    expect(await api.isEnabled('embed-metadata')).toBe(true);

    await repositories.featureFlags.upsert({ key: 'embed-metadata', enabled: false });
    // Announced again on each try: the reader subscribes on its first read, which may not have finished yet.
    const announcedThenRead = async () => {
      await admin.announceChange();
      return api.isEnabled('embed-metadata');
    };
    await expect.poll(announcedThenRead, { timeout: 2_000, interval: 20 }).toBe(false);
  });
});
