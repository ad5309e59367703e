import type { IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort, type SpawnedService, spawnService, waitForStatus } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ApiStack, connectWs, type Json, startApiStack } from './support/api-stack';

const API_ENTRY = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const CAP = { WS_MAX_SOCKETS_PER_USER: '3' };

let stack: ApiStack;
let apiA: { url: string };
let apiB: { url: string };
const spawned: SpawnedService[] = [];

beforeAll(async () => {
  stack = await startApiStack('ws-socket-cap');
  apiA = await stack.startApi(CAP);
  apiB = await stack.startApi(CAP);
}, 60_000);

afterAll(async () => {
  for (const api of spawned) await api.stop();
  await stack?.close();
});

/** The plain HTTP answer to an upgrade the API refuses: no socket is opened. */
function refusedUpgrade(apiUrl: string, headers: Record<string, string>) {
  return new Promise<{ status: number; type: string | undefined; body: Json }>((resolve, reject) => {
    const socket = new WebSocket(`${apiUrl.replace('http', 'ws')}/api/ws`, { headers });
    socket.once('open', () => reject(new Error('the upgrade was accepted')));
    socket.once('unexpected-response', (_request, response: IncomingMessage) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], body: JSON.parse(text) }),
      );
    });
  });
}

const closed = (ws: { socket: WebSocket; close: () => void }) =>
  new Promise<void>((resolve) => {
    ws.socket.once('close', () => resolve());
    ws.close();
  });

describe('WebSockets per user', () => {
  it('admits three, refuses the fourth with a 429 problem at the upgrade, and admits again once one closes', async () => {
    const owner = await stack.createUser();
    const open = [
      await connectWs(apiA.url, owner.headers),
      await connectWs(apiA.url, owner.headers),
      await connectWs(apiA.url, owner.headers),
    ];

    expect(await refusedUpgrade(apiA.url, owner.headers)).toMatchObject({
      status: 429,
      type: expect.stringContaining('application/problem+json'),
      body: { status: 429, code: 'rate_limited', detail: expect.stringMatching(/3/), requestId: expect.any(String) },
    });
    const stranger = await stack.createUser();
    const strangers = await connectWs(apiA.url, stranger.headers);

    await closed(open[0]!);
    const again = await connectWs(apiA.url, owner.headers);
    again.send({ type: 'ping' });
    await again.waitFor((all) => all.some((m) => m.type === 'pong'));
    for (const ws of [...open.slice(1), again, strangers]) ws.close();
  });

  it('counts the sockets a user holds on every API instance together', async () => {
    const owner = await stack.createUser();
    const onA = [await connectWs(apiA.url, owner.headers), await connectWs(apiA.url, owner.headers)];
    const onB = await connectWs(apiB.url, owner.headers);

    expect((await refusedUpgrade(apiB.url, owner.headers)).status).toBe(429);
    expect((await refusedUpgrade(apiA.url, owner.headers)).status).toBe(429);

    await closed(onA[0]!);
    const replacement = await connectWs(apiB.url, owner.headers);
    for (const ws of [onA[1]!, onB, replacement]) ws.close();
  });

  it('frees the sockets of an instance that shuts down at once', async () => {
    const owner = await stack.createUser();
    const leaving = await stack.startApi(CAP);
    await Promise.all([1, 2, 3].map(() => connectWs(leaving.url, owner.headers)));
    await leaving.close();
    // Well within a lease (three 25 s heartbeats): only the release on shutdown can have made room.
    const replacement = await connectWs(apiA.url, owner.headers);
    replacement.close();
  });

  it("stops counting a crashed instance's sockets once their lease runs out", async () => {
    const owner = await stack.createUser();
    // One heartbeat a second: a socket's lease (three heartbeats) runs out three seconds after its last renewal.
    const quick = { ...CAP, WS_PING_INTERVAL_MS: '1000' };
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const doomed = spawnService(API_ENTRY, { ...stack.env, ...quick, API_PORT: String(port), PUBLIC_URL: url });
    spawned.push(doomed);
    await waitForStatus(doomed, `${url}/health/ready`);
    const survivor = await stack.startApi(quick);
    await Promise.all([1, 2, 3].map(() => connectWs(url, owner.headers)));

    doomed.child.kill('SIGKILL');
    await doomed.exited;
    expect((await refusedUpgrade(survivor.url, owner.headers)).status).toBe(429);
    const admitted = () =>
      connectWs(survivor.url, owner.headers).then(
        (ws) => {
          ws.close();
          return true;
        },
        () => false,
      );
    await expect.poll(admitted, { timeout: 10_000, interval: 500 }).toBe(true);
  });

  it('admits sockets past the cap while Redis is down, as the request rate limiter lets requests pass', async () => {
    const owner = await stack.createUser();
    const withoutRedis = await stack.startApi({
      WS_MAX_SOCKETS_PER_USER: '1',
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    });
    const open = [await connectWs(withoutRedis.url, owner.headers), await connectWs(withoutRedis.url, owner.headers)];
    for (const ws of open) ws.close();
  });
});
