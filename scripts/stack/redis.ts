import { join } from 'node:path';
import { freePort } from '../../packages/service-kit/src/testing/free-port';
import { onPath } from './executables';
import { dataDir } from './paths';
import { type PrivateService, startPrivateService } from './private-service';
import { pingRedis } from './resp';
import { elapsedSince } from './say';
import type { Teardown } from './teardown';
import { redactUrl } from './urls';

export interface RedisServer {
  description: string;
  url: string;
  privateService?: PrivateService;
}

const LOCAL_URL = 'redis://127.0.0.1:6379';

const NO_REDIS = `No Redis to use: REDIS_URL is not set, nothing answers on 127.0.0.1:6379, and there is no redis-server on PATH.
Get one, then run the command again:
  sudo apt-get install redis-server    (Debian, Ubuntu)
  brew install redis                   (macOS)
  docker compose up -d redis           (Docker: it listens on 127.0.0.1:6379)`;

/**
 * REDIS_URL, else a Redis on 6379, else a private redis-server on a free port that stops with the stack.
 * RENAMER_PRIVATE_REDIS=1 skips the one on 6379.
 */
export async function findRedis(teardown: Teardown): Promise<RedisServer> {
  const configured = process.env.REDIS_URL;
  if (configured) {
    const ping = await pingRedis(configured, 3000);
    if (!ping.ok) throw new Error(`REDIS_URL (${redactUrl(configured)}) does not answer PING: ${ping.reason}`);
    return { description: `REDIS_URL ${redactUrl(configured)}`, url: configured };
  }
  if (process.env.RENAMER_PRIVATE_REDIS !== '1' && (await pingRedis(LOCAL_URL)).ok) {
    return { description: `local Redis ${LOCAL_URL}`, url: LOCAL_URL };
  }
  if (!onPath('redis-server')) throw new Error(NO_REDIS);
  const port = await freePort();
  const startedAt = performance.now();
  const privateService = await startPrivateService('redis', 'red', {
    kind: 'redis',
    port,
    dir: join(dataDir, 'redis'),
  });
  teardown.defer('stop the private redis-server', privateService.stop);
  return {
    description: `private redis-server on port ${port} (up in ${elapsedSince(startedAt)})`,
    url: `redis://127.0.0.1:${port}`,
    privateService,
  };
}
