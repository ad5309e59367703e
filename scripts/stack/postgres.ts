import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../packages/service-kit/src/testing/free-port';
import { probePostgres } from './databases';
import { onPath } from './executables';
import { dataDir } from './paths';
import { type PrivateService, startPrivateService } from './private-service';
import { elapsedSince, say } from './say';
import type { Teardown } from './teardown';
import { redactUrl } from './urls';

export interface PostgresServer {
  /** How it was found, for the log. */
  description: string;
  /** A database on that server to connect to for creating and dropping others. */
  serverUrl: string;
  /** DATABASE_URL, when it names the database to use. */
  configuredUrl?: string;
  privateService?: PrivateService;
}

/** `long-lived` keeps its data in .data/postgres (npm start); `throwaway` is a fresh cluster for one test run. */
export type EmbeddedKind = 'long-lived' | 'throwaway';

const EMBEDDED = { port: 54329, user: 'postgres', password: 'postgres' };
const SYSTEM_CLUSTERS = '/etc/postgresql';

/**
 * DATABASE_URL, else a local server on 5432 (started with pg_ctlcluster when one is installed but down), else an
 * embedded PostgreSQL. RENAMER_EMBEDDED_POSTGRES=1 skips the local server.
 */
export async function findPostgres(kind: EmbeddedKind, teardown: Teardown): Promise<PostgresServer> {
  const configured = process.env.DATABASE_URL;
  if (configured) {
    const probe = await probePostgres(configured);
    if (!probe.ok) throw new Error(`DATABASE_URL (${redactUrl(configured)}) does not answer: ${probe.reason}`);
    return { description: `DATABASE_URL ${redactUrl(configured)}`, serverUrl: configured, configuredUrl: configured };
  }
  if (process.env.RENAMER_EMBEDDED_POSTGRES !== '1') {
    const local = await findLocal();
    if (local) return local;
  }
  return startEmbedded(kind, teardown);
}

async function findLocal(): Promise<PostgresServer | undefined> {
  let found = await probeLocal();
  if (found.refused && startSystemCluster()) {
    found = await probeLocal();
  }
  if (found.url) return { description: `local PostgreSQL ${redactUrl(found.url)}`, serverUrl: found.url };
  if (!found.refused) say(`PostgreSQL on 127.0.0.1:5432 answers but does not let us in (${found.reason})`);
  return undefined;
}

/** Superusers a local server commonly has: `postgres` (Debian, Docker), or the login user (Homebrew). */
async function probeLocal(): Promise<{ url?: string; refused: boolean; reason?: string }> {
  let reason: string | undefined;
  for (const user of new Set(['postgres', userInfo().username])) {
    const url = `postgres://${encodeURIComponent(user)}@127.0.0.1:5432/postgres`;
    const probe = await probePostgres(url);
    if (probe.ok) return { url, refused: false };
    if (probe.refused) return { refused: true };
    reason = probe.reason;
  }
  return { refused: false, reason };
}

/** Debian's PostgreSQL, installed but not running (CI machines after a reboot). */
function startSystemCluster(): boolean {
  const command = onPath('pg_ctlcluster');
  if (!command || !existsSync(SYSTEM_CLUSTERS)) return false;
  const [version] = readdirSync(SYSTEM_CLUSTERS).sort((a, b) => Number(b) - Number(a));
  if (!version) return false;
  say(`starting the system PostgreSQL ${version} (pg_ctlcluster ${version} main start)`);
  const result = spawnSync(command, ['--skip-systemctl-redirect', version, 'main', 'start'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status === 0) return true;
  say(`pg_ctlcluster failed: ${(result.stderr || result.error?.message || `exit ${result.status}`).trim()}`);
  return false;
}

function embeddedUrl(port: number): string {
  return `postgres://${EMBEDDED.user}:${EMBEDDED.password}@127.0.0.1:${port}/postgres`;
}

async function startEmbedded(kind: EmbeddedKind, teardown: Teardown): Promise<PostgresServer> {
  if (kind === 'long-lived' && (await probePostgres(embeddedUrl(EMBEDDED.port))).ok) {
    // Another `npm start` (or `npm run db:migrate`) of this checkout runs it: share it, leave it running.
    return {
      description: `embedded PostgreSQL on port ${EMBEDDED.port}, already running`,
      serverUrl: embeddedUrl(EMBEDDED.port),
    };
  }
  const throwaway = kind === 'throwaway';
  const port = throwaway ? await freePort() : EMBEDDED.port;
  // A throwaway cluster lives in the system temp dir: as root, PostgreSQL runs as `postgres`, which may not
  // be able to reach the checkout.
  const dir = throwaway
    ? join(tmpdir(), `renamer-postgres-${randomBytes(4).toString('hex')}`)
    : join(dataDir, 'postgres');
  const startedAt = performance.now();
  const privateService = await startPrivateService('postgres', 'blue', {
    kind: 'postgres',
    port,
    dataDir: dir,
    throwaway,
    user: EMBEDDED.user,
    password: EMBEDDED.password,
  }).catch((error: Error) => {
    const rootHint =
      process.getuid?.() === 0
        ? `\nAs root, PostgreSQL runs as the user "postgres", which must be able to reach ${dir}.`
        : '';
    throw new Error(`${error.message}${rootHint}`);
  });
  teardown.defer('stop the embedded PostgreSQL', privateService.stop);
  return {
    description: `embedded PostgreSQL on port ${port}, data in ${dir} (up in ${elapsedSince(startedAt)})`,
    serverUrl: embeddedUrl(port),
    privateService,
  };
}
