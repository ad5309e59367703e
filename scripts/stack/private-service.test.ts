import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../packages/service-kit/src/testing/free-port';
import { onPath } from './executables';
import { dataDir } from './paths';
import { startPrivateService } from './private-service';
import { pingRedis } from './resp';

describe.skipIf(!onPath('redis-server'))('a private redis-server', () => {
  it('runs until stopped, and then is gone', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const redis = await startPrivateService('redis', 'red', { kind: 'redis', port, dir: join(dataDir, 'redis') });
    try {
      await expect.poll(() => pingRedis(url), { timeout: 5000 }).toEqual({ ok: true });
    } finally {
      await redis.stop();
    }
    expect((await pingRedis(url)).ok).toBe(false);
  });
});
