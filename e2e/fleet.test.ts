import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ApiStack, connectWs, photo, startApiStack, upload } from '@renamer/api/testing';
import { freePort } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm start -- --api 2 --workers 2` as a person runs it (scripts/stack/start.ts): two API instances, two
 * workers and the admin API over one database, Redis and store; what one API instance starts, the other
 * continues; a worker that dies is started again.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
let stack: ChildProcess;
let output = '';
let apis: string[];
let workerPorts: number[];
let key: string;
let data: ApiStack;

/** A port whose neighbour 100 above is free too: the fleet's second instance listens there. */
async function pairOfPorts(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 100 > 65_535) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer()
        .once('error', () => resolve(false))
        .listen(port + 100, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${output.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const ready = (port: number) =>
  fetch(`http://127.0.0.1:${port}/health/ready`).then(
    (response) => response.ok,
    () => false,
  );

beforeAll(async () => {
  // Its database, Redis prefix and store, and a user with a key; the fleet itself runs from the start script.
  data = await startApiStack('fleet');
  const [apiPort, workerPort, adminPort, idpPort] = [
    await pairOfPorts(),
    await pairOfPorts(),
    await freePort(),
    await freePort(),
  ];
  workerPorts = [workerPort, workerPort + 100];
  apis = [`http://127.0.0.1:${apiPort}`, `http://127.0.0.1:${apiPort + 100}`];
  stack = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/stack/start.ts', 'start', '--api', '2', '--workers', '2'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LOG_LEVEL: 'warn',
        DATABASE_URL: data.env.DATABASE_URL,
        REDIS_URL: data.env.REDIS_URL,
        REDIS_PREFIX: data.env.REDIS_PREFIX,
        STORAGE_DIR: data.env.STORAGE_DIR,
        API_PORT: String(apiPort),
        WORKER_PORT: String(workerPort),
        ADMIN_API_PORT: String(adminPort),
        DEV_IDP_PORT: String(idpPort),
        // No web app: the web tests build it, and two builds at once would trip over each other.
        WEB_DIST_DIR: '',
      },
      detached: true,
    },
  );
  stack.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  stack.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  await until(() => output.includes('Ctrl-C stops everything.'), 'the fleet to start', 110_000);

  key = (await data.createUser()).key;
}, 150_000);

afterAll(async () => {
  if (stack && stack.exitCode === null) {
    process.kill(-stack.pid!, 'SIGINT');
    await new Promise((resolve) => stack.once('exit', resolve));
  }
  await data?.close();
}, 60_000);

describe('npm start -- --api 2 --workers 2', () => {
  it('prints every instance’s address, each on its own port 100 above the last', () => {
    for (const api of apis) expect(output).toContain(api.replace('127.0.0.1', 'localhost'));
    for (const port of workerPorts) expect(output).toContain(`http://localhost:${port}/metrics`);
    expect(output).toMatch(/api-2 +http:\/\/localhost:\d+\//);
    expect(output).toMatch(/worker-2 +http:\/\/localhost:\d+\/metrics/);
  });

  it('lets one API instance continue what the other started: uploaded through one, followed and downloaded through the other', async () => {
    const headers = { authorization: `Bearer ${key}` };
    const socket = await connectWs(apis[1]!, headers);
    const uploaded = await upload(apis[0]!, key, [
      { name: 'IMG_1.JPG', type: 'image/jpeg', bytes: await photo('jpeg', 901) },
      { name: 'IMG_2.JPG', type: 'image/jpeg', bytes: await photo('jpeg', 902) },
    ]);
    expect(uploaded.status).toBe(201);
    const { batchId } = uploaded.body as { batchId: string };
    socket.send({ type: 'subscribe', batchId });
    await socket.waitFor(
      (messages) => messages.some((message) => message.type === 'batch.status' && message.status === 'completed'),
      60_000,
    );
    socket.socket.close();

    const link = await fetch(`${apis[1]}/api/batch/${batchId}/download`, { method: 'POST', headers });
    expect(link.status).toBe(200);
    const archive = await fetch(((await link.json()) as { url: string }).url);
    expect(archive.headers.get('content-type')).toBe('application/zip');
    expect((await archive.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  }, 90_000);

  it('starts a worker that was killed again, as an orchestrator would, and keeps the others running', async () => {
    const [, secondWorker] = workerPorts;
    const pid = await new Promise<number>((resolve, reject) => {
      const probe = spawn('bash', [
        '-c',
        `for p in $(pgrep -f apps/worker/src/server.ts); do tr '\\0' '\\n' < /proc/$p/environ | grep -qx WORKER_PORT=${secondWorker} && echo $p; done`,
      ]);
      let found = '';
      probe.stdout.on('data', (chunk) => {
        found += chunk;
      });
      probe.on('exit', () =>
        found.trim() ? resolve(Number(found.trim().split('\n')[0])) : reject(new Error('no worker-2')),
      );
    });
    process.kill(pid, 'SIGKILL');
    await until(() => output.includes('worker-2 exited'), 'worker-2 to be seen exiting', 10_000);
    await until(() => output.includes('worker-2 started again'), 'worker-2 to start again', 15_000);
    await until(() => ready(secondWorker!), 'worker-2 to be ready again', 60_000);
    expect(await ready(workerPorts[0]!)).toBe(true);
    expect(stack.exitCode).toBeNull();
  }, 90_000);
});
