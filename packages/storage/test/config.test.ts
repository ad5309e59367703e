import { describe, expect, it } from 'vitest';
import { createObjectStore, ObjectStoreConfigSchema } from '../src/index';

const SECRET = 'test-secret-that-is-at-least-32-characters';

describe('object store config', () => {
  it('defaults the filesystem directory', () => {
    const config = ObjectStoreConfigSchema.parse({
      driver: 'fs',
      publicUrl: 'http://localhost:3000',
      signingSecret: SECRET,
    });
    expect(config).toMatchObject({ driver: 'fs', dir: '.data/objects' });
  });

  it('builds the filesystem driver, whose links point at the API', async () => {
    const store = createObjectStore({
      driver: 'fs',
      dir: '/tmp/unused',
      publicUrl: 'https://renamer.test/',
      signingSecret: SECRET,
    });
    const { url } = await store.downloadUrl('a/b', { expiresInSeconds: 60 });
    expect(url).toMatch(/^https:\/\/renamer\.test\/api\/files\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('builds the S3 driver, whose links are presigned', async () => {
    const store = createObjectStore({
      driver: 's3',
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      region: 'eu-west-1',
      accessKey: 'AKIA',
      secretKey: 'secret',
      bucket: 'renamer-test',
    });
    const { url } = await store.downloadUrl('a/b', { expiresInSeconds: 60 });
    expect(url).toMatch(
      /^https:\/\/s3\.eu-west-1\.amazonaws\.com\/renamer-test\/a\/b\?X-Amz-Algorithm=AWS4-HMAC-SHA256&/,
    );
  });

  it.each([
    [{ driver: 'fs', publicUrl: 'http://x', signingSecret: 'short' }, 'signingSecret'],
    [{ driver: 'fs', publicUrl: 'ftp://x', signingSecret: SECRET }, 'publicUrl'],
    [{ driver: 's3', endpoint: 'http://x', accessKey: 'a', secretKey: 'b', bucket: 'Bad_Bucket' }, 'bucket'],
    [{ driver: 's3', endpoint: 'http://x', bucket: 'renamer' }, 'accessKey'],
    [{ driver: 'gcs' }, 'driver'],
  ])('refuses %j, naming %s', (config, field) => {
    const result = ObjectStoreConfigSchema.safeParse(config);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });
});
