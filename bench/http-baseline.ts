/**
 * The baselines of `bench/http.ts`, run as their own process: a bare Fastify route, and one doing the least an
 * authenticated status read needs (one Redis INCR for the rate limit and one prepared PostgreSQL round trip).
 *
 *   PORT=… BASELINE=bare|io [DATABASE_URL=… REDIS_URL=… REDIS_PREFIX=… BATCH_ID=…] node --import tsx bench/http-baseline.ts
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import postgres from 'postgres';

type Handler = () => Promise<unknown>;
interface FastifyLike {
  get(path: string, handler: Handler): void;
  listen(options: { port: number; host: string }): Promise<string>;
  close(): Promise<void>;
}

const root = fileURLToPath(new URL('..', import.meta.url));
// Fastify as the API resolves it (the root does not list it).
const fastify = createRequire(join(root, 'apps/api/package.json'))('fastify') as (options: object) => FastifyLike;
const app = fastify({ logger: false });
const closers: (() => Promise<unknown>)[] = [() => app.close()];

app.get('/health/ready', async () => ({ status: 'ok' }));

if (process.env.BASELINE === 'io') {
  const redis = new Redis(process.env.REDIS_URL!);
  // postgres.js prepares each distinct query text once per connection and reuses it.
  const sql = postgres(process.env.DATABASE_URL!, { max: 10 });
  closers.push(
    () => redis.quit(),
    () => sql.end({ timeout: 5 }),
  );
  const counter = `${process.env.REDIS_PREFIX}baseline-counter`;
  const batchId = process.env.BATCH_ID!;
  app.get('/read', async () => {
    await redis.incr(counter);
    const [row] = await sql`select id, status, total from batches where id = ${batchId}`;
    return row;
  });
} else {
  app.get('/read', async () => ({ status: 'ok' }));
}

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', async () => {
  for (const close of closers) await close();
  process.exit(0);
});
