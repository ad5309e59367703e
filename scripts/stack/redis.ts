import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { freePort } from '../../packages/runtime/src/testing/free-port';
import { type Hold, startKeeper } from './keeper';
import { elapsedSince, redactUrl } from './say';

export interface RedisServer {
  description: string;
  url: string;
  /** Stops what was started for it. */
  stop?: () => Promise<unknown>;
}

const LOCAL_URL = 'redis://127.0.0.1:6379';

const NO_REDIS = `No Redis to use: REDIS_URL is not set, nothing answers on 127.0.0.1:6379, and there is no redis-server on PATH.
Get one, then run the command again:
  sudo apt-get install redis-server    (Debian, Ubuntu)
  brew install redis                   (macOS)
  docker compose up -d redis           (Docker: it listens on 127.0.0.1:6379)`;

/** REDIS_URL, else a Redis on 6379, else a private redis-server on a free port. RENAMER_PRIVATE_REDIS=1 skips 6379. */
export async function findRedis(): Promise<RedisServer> {
  const configured = process.env.REDIS_URL;
  if (configured) {
    const failure = await ping(configured);
    if (failure) throw new Error(`REDIS_URL (${redactUrl(configured)}) does not answer PING: ${failure}`);
    return { description: `REDIS_URL ${redactUrl(configured)}`, url: configured };
  }
  if (process.env.RENAMER_PRIVATE_REDIS !== '1' && !(await ping(LOCAL_URL))) {
    return { description: `local Redis ${LOCAL_URL}`, url: LOCAL_URL };
  }
  if (spawnSync('redis-server', ['--version']).error) throw new Error(NO_REDIS);
  const [port, startedAt] = [await freePort(), performance.now()];
  const dir = fileURLToPath(new URL('../../.data/redis', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const stop = await startKeeper(import.meta.url, { port, dir });
  const description = `private redis-server on port ${port} (up in ${elapsedSince(startedAt)})`;
  return { description, url: `redis://127.0.0.1:${port}`, stop };
}

/** Why `url` does not answer PING, if it does not. */
function ping(url: string): Promise<string | undefined> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2000, retryStrategy: () => null });
  redis.on('error', () => {}); // the failed command says why
  return redis
    .connect()
    .then(() => redis.ping())
    .then(
      () => undefined,
      (error: Error) => error.message,
    )
    .finally(() => redis.disconnect());
}

/** A redis-server without persistence, run by a keeper. */
export const hold: Hold<{ port: number; dir: string }> = async ({ port, dir }) => {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
  const server = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: server.stdout }).on('line', (line) => {
      output.push(line);
      if (line.includes('Ready to accept connections')) resolve();
    });
    server.once('exit', () => reject(new Error(`redis-server did not start:\n${output.join('\n')}`)));
  });
  return () => {
    server.kill();
    return once(server, 'exit');
  };
};
