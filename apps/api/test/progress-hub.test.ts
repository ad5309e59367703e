import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type BatchStatusResponse, type ProgressEvent, ServerMessage } from '@renamer/contracts';
import type { CallLog } from '@renamer/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { SocketCredential } from '../src/ws/credential-recheck';
import { createProgressHub, type ProgressHubOptions } from '../src/ws/progress-hub';
import type { OpenSocket, UserSocketLimit } from '../src/ws/user-socket-limit';

/** A status load the test lets through when it chooses, and can tell has begun. */
function gate() {
  let open = () => {};
  let enter = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  return {
    open,
    entered,
    pass: async () => {
      enter();
      await opened;
    },
  };
}

const statusOf = (batchId: string): BatchStatusResponse => ({
  batchId,
  name: null,
  status: 'processing',
  total: 2,
  processed: 0,
  progress: 0,
  counts: { queued: 1, processing: 1, ready: 0, approved: 0, failed: 0, cancelled: 0 },
  locale: 'en',
  keywords: [],
  context: null,
  template: null,
  instructions: null,
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:05.000Z',
  completedAt: null,
});

const imageEvent = (batchId: string, status: 'processing' | 'ready'): ProgressEvent => ({
  type: 'image.status',
  batchId,
  imageId: randomUUID(),
  status,
  at: new Date().toISOString(),
});

/** The hub behind a loopback `ws` server; Redis's socket count is replaced by one that records its calls. */
async function startHub(
  options: Partial<
    Pick<
      ProgressHubOptions,
      'maxMessages' | 'pingIntervalMs' | 'pongTimeoutMs' | 'statusIntervalMs' | 'maxBufferedBytes'
    >
  > = {},
) {
  const owners = new Map<string, string>();
  const gates = new Map<string, ReturnType<typeof gate>>();
  const revoked = new Set<string>();
  const checks: SocketCredential[][] = [];
  const released: OpenSocket[] = [];
  const renewals: OpenSocket[][] = [];
  const socketLimit: UserSocketLimit = {
    admit: async () => randomUUID(),
    renew: async (sockets) => {
      renewals.push([...sockets].map(({ userId, socketId }) => ({ userId, socketId })));
    },
    release: async (socket) => {
      released.push(socket);
    },
  };
  const hub = createProgressHub({
    loadOwnBatchStatus: async (userId, batchId) => {
      await gates.get(batchId)?.pass();
      return owners.get(batchId) === userId ? statusOf(batchId) : null;
    },
    // In these tests a credential's id is its user's.
    checkCredentials: async (credentials) => {
      checks.push([...credentials]);
      return new Set(credentials.map((credential) => credential.id).filter((userId) => !revoked.has(userId)));
    },
    socketLimit,
    maxMessages: options.maxMessages ?? 30,
    windowMs: 10_000,
    pingIntervalMs: options.pingIntervalMs ?? 60_000,
    pongTimeoutMs: options.pongTimeoutMs ?? 120_000,
    statusIntervalMs: options.statusIntervalMs ?? 100,
    maxBufferedBytes: options.maxBufferedBytes ?? 2 ** 20,
  });
  const log: CallLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  server.on('connection', (socket, request) => {
    const url = new URL(request.url ?? '/', 'ws://hub.test');
    const userId = url.searchParams.get('user') ?? '';
    hub.accept(socket, {
      userId,
      socketId: url.searchParams.get('socket') ?? '',
      log,
      credential: { via: 'session', id: userId },
      // As the route does: the socket the upgrade came on, for the shared frames.
      raw: request.socket,
    });
  });
  const { port } = server.address() as AddressInfo;

  const harness = {
    hub,
    released,
    renewals,
    checks,
    /** A batch owned by `userId`, whose status loads wait for `gate.open()` when one is given. */
    batch(userId: string, statusGate?: ReturnType<typeof gate>) {
      const batchId = randomUUID();
      owners.set(batchId, userId);
      if (statusGate) gates.set(batchId, statusGate);
      return batchId;
    },
    revoke: (userId: string) => revoked.add(userId),
    async connect(userId: string, { autoPong = true } = {}) {
      const socketId = randomUUID();
      const socket = new WebSocket(`ws://127.0.0.1:${port}/?user=${userId}&socket=${socketId}`, { autoPong });
      const messages: ServerMessage[] = [];
      socket.on('message', (data) => messages.push(ServerMessage.parse(JSON.parse(data.toString()))));
      const closed = new Promise<{ code: number; reason: string }>((resolve) =>
        socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
      );
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      return {
        socketId,
        socket,
        messages,
        closed,
        send: (message: unknown) => socket.send(JSON.stringify(message)),
        waitFor: (predicate: (all: ServerMessage[]) => boolean) =>
          expect.poll(() => predicate(messages), { timeout: 2_000, interval: 5 }).toBe(true),
      };
    },
    async close() {
      await hub.close();
      for (const client of server.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  running.push(harness);
  return harness;
}

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const harness of running.splice(0)) await harness.close();
});

const types = (messages: ServerMessage[]) => messages.map((message) => message.type);

describe('subscribing to a batch', () => {
  it('answers subscribed with the status, forwards the room’s events, and stops after unsubscribe', async () => {
    const { hub, batch, connect } = await startHub();
    const batchId = batch('alice');
    const client = await connect('alice');

    client.send({ type: 'subscribe', batchId });
    await client.waitFor((all) => all.some((m) => m.type === 'subscribed'));
    expect(client.messages[0]).toEqual({ type: 'subscribed', batchId, status: statusOf(batchId) });
    hub.deliver(imageEvent(batchId, 'ready'));
    await client.waitFor((all) => all.some((m) => m.type === 'image.status'));

    client.send({ type: 'unsubscribe', batchId });
    await client.waitFor((all) => all.some((m) => m.type === 'unsubscribed'));
    hub.deliver(imageEvent(batchId, 'ready'));
    client.send({ type: 'ping' });
    await client.waitFor((all) => all.some((m) => m.type === 'pong'));
    expect(types(client.messages)).toEqual(['subscribed', 'image.status', 'unsubscribed', 'pong']);
    expect(hub.stats()).toEqual({ connections: 1, rooms: 0, coalescing: 0 });
  });

  it('holds the events delivered while the status loads, then sends subscribed first and them in order', async () => {
    const { hub, batch, connect } = await startHub();
    const loading = gate();
    const batchId = batch('alice', loading);
    const client = await connect('alice');

    client.send({ type: 'subscribe', batchId });
    await loading.entered;
    const held = [imageEvent(batchId, 'processing'), imageEvent(batchId, 'ready')];
    for (const event of held) hub.deliver(event);
    loading.open();

    await client.waitFor((all) => all.length === 3);
    expect(client.messages).toEqual([{ type: 'subscribed', batchId, status: statusOf(batchId) }, ...held]);
  });

  it("answers not_found for another user's batch and drops the events held meanwhile", async () => {
    const { hub, batch, connect } = await startHub();
    const loading = gate();
    const batchId = batch('alice', loading);
    const mallory = await connect('mallory');

    mallory.send({ type: 'subscribe', batchId });
    await loading.entered;
    hub.deliver(imageEvent(batchId, 'processing'));
    loading.open();
    await mallory.waitFor((all) => all.length > 0);
    hub.deliver(imageEvent(batchId, 'ready'));
    mallory.send({ type: 'ping' });
    await mallory.waitFor((all) => all.some((m) => m.type === 'pong'));

    expect(mallory.messages).toEqual([
      { type: 'error', code: 'not_found', message: expect.any(String) },
      { type: 'pong' },
    ]);
    expect(hub.stats().rooms).toBe(0);
  });

  it('answers every member of a deleted batch’s room with unsubscribed, and closes the room', async () => {
    const { hub, batch, connect } = await startHub();
    const batchId = batch('alice');
    const members = [await connect('alice'), await connect('alice')];
    for (const member of members) {
      member.send({ type: 'subscribe', batchId });
      await member.waitFor((all) => all.some((m) => m.type === 'subscribed'));
    }

    hub.deliver({ type: 'batch.deleted', batchId, at: new Date().toISOString() });
    for (const member of members) await member.waitFor((all) => all.some((m) => m.type === 'unsubscribed'));
    expect(hub.stats()).toEqual({ connections: 2, rooms: 0, coalescing: 0 });
    hub.deliver(imageEvent(batchId, 'ready'));
    for (const member of members) {
      member.send({ type: 'ping' });
      await member.waitFor((all) => all.some((m) => m.type === 'pong'));
      expect(types(member.messages)).toEqual(['subscribed', 'unsubscribed', 'pong']);
    }
  });
});

const batchStatus = (batchId: string, processed: number): ProgressEvent => ({
  type: 'batch.status',
  batchId,
  status: 'processing',
  processed,
  total: 20,
  progress: processed / 20,
  at: new Date().toISOString(),
});

describe('fanning events out to a room', () => {
  it('serialises each event once for all the room’s members', async () => {
    const { hub, batch, connect } = await startHub();
    const batchId = batch('alice');
    const members = [await connect('alice'), await connect('alice'), await connect('alice')];
    for (const member of members) {
      member.send({ type: 'subscribe', batchId });
      await member.waitFor((all) => all.some((m) => m.type === 'subscribed'));
    }
    const event = imageEvent(batchId, 'ready');
    const stringify = vi.spyOn(JSON, 'stringify');
    hub.deliver(event);
    expect(stringify).toHaveBeenCalledTimes(1);
    stringify.mockRestore();
    for (const member of members) {
      await member.waitFor((all) => all.length === 2);
      expect(member.messages[1]).toEqual(event);
    }
  });

  it('sends every image event and, of a burst of batch statuses, the first and the last, in order', async () => {
    const { hub, batch, connect } = await startHub();
    const batchId = batch('alice');
    const client = await connect('alice');
    client.send({ type: 'subscribe', batchId });
    await client.waitFor((all) => all.some((m) => m.type === 'subscribed'));

    // Delivered in one go, well within one interval: the statuses between the first and the last are dropped.
    for (let processed = 1; processed <= 20; processed++) {
      hub.deliver(imageEvent(batchId, 'ready'));
      hub.deliver(batchStatus(batchId, processed));
    }
    await client.waitFor((all) => all.some((m) => m.type === 'batch.status' && m.processed === 20));
    const seen = client.messages.slice(1).map((m) => (m.type === 'batch.status' ? `s${m.processed}` : 'image'));
    expect(seen).toEqual(['image', 's1', ...Array<string>(19).fill('image'), 's20']);
    await expect.poll(() => hub.stats().coalescing).toBe(0);
  });

  it('drops a client that stops reading once too much waits for it', async () => {
    const { hub, batch, connect } = await startHub({ maxBufferedBytes: 256 * 1024 });
    const batchId = batch('alice');
    const stalled = await connect('alice');
    const reading = await connect('alice');
    for (const client of [stalled, reading]) {
      client.send({ type: 'subscribe', batchId });
      await client.waitFor((all) => all.some((m) => m.type === 'subscribed'));
    }
    // The client's own socket stops reading (ws's pause pauses it): what the server sends piles up in the kernel,
    // then in ws.
    stalled.socket.pause();
    let sent = 0;
    while (hub.stats().connections === 2) {
      // Little at a time, so that the client still reading keeps up with it.
      for (let i = 0; i < 100; i++) hub.deliver(imageEvent(batchId, 'ready'));
      sent += 100;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(hub.stats().connections).toBe(1);
    // Some 20,000 events reach the one that reads: more time than waitFor's to parse them all.
    await expect.poll(() => reading.messages.length, { timeout: 15_000, interval: 20 }).toBe(sent + 1);
  });
});

describe('a connection', () => {
  it('answers a message that is not one of the contract’s with validation_failed', async () => {
    const { connect } = await startHub();
    const client = await connect('alice');
    client.send({ type: 'subscribe', batchId: 'not-a-uuid' });
    client.socket.send('not json');
    await client.waitFor((all) => all.length === 2);
    expect(client.messages).toEqual([
      { type: 'error', code: 'validation_failed', message: expect.any(String) },
      { type: 'error', code: 'validation_failed', message: expect.any(String) },
    ]);
  });

  it('is warned with rate_limited past the message limit, then closed with 1008 if it goes on', async () => {
    const { connect } = await startHub({ maxMessages: 3 });
    const client = await connect('alice');
    for (let i = 0; i < 4; i++) client.send({ type: 'ping' });
    await client.waitFor((all) => all.length === 4);
    expect(types(client.messages)).toEqual(['pong', 'pong', 'pong', 'error']);
    expect(client.messages[3]).toMatchObject({ code: 'rate_limited' });

    for (let i = 0; i < 3; i++) client.send({ type: 'ping' });
    expect(await client.closed).toEqual({ code: 1008, reason: 'message rate limit exceeded' });
  });

  it('is terminated once it has been silent past the pong timeout, while one that answers pings stays', async () => {
    const { connect } = await startHub({ pingIntervalMs: 30, pongTimeoutMs: 150 });
    const answering = await connect('alice');
    const silent = await connect('alice', { autoPong: false });
    expect((await silent.closed).code).toBe(1006);
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('is closed with 1008 at the next heartbeat once its credentials stop working', async () => {
    const { connect, revoke } = await startHub({ pingIntervalMs: 30 });
    const revokedClient = await connect('alice');
    const other = await connect('bob');
    revoke('alice');
    expect(await revokedClient.closed).toEqual({ code: 1008, reason: 'credentials no longer valid' });
    expect(other.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('re-checks the credentials of all its sockets in one call', async () => {
    const { connect, checks } = await startHub({ pingIntervalMs: 30 });
    await connect('alice');
    await connect('bob');
    await expect.poll(() => checks.at(-1)?.map((credential) => credential.id)).toEqual(['alice', 'bob']);
  });

  it('leaves its rooms and gives back its place when it closes', async () => {
    const { hub, batch, connect, released } = await startHub();
    const batchId = batch('alice');
    const client = await connect('alice');
    client.send({ type: 'subscribe', batchId });
    await client.waitFor((all) => all.some((m) => m.type === 'subscribed'));
    expect(hub.stats()).toEqual({ connections: 1, rooms: 1, coalescing: 0 });

    client.socket.close();
    await expect.poll(() => hub.stats()).toEqual({ connections: 0, rooms: 0, coalescing: 0 });
    expect(released).toEqual([{ userId: 'alice', socketId: client.socketId }]);
  });

  it('leaves nothing behind once many sockets in busy rooms have closed', async () => {
    const { hub, batch, connect, released } = await startHub();
    const batchIds = [batch('alice'), batch('alice')];
    const clients = await Promise.all(Array.from({ length: 40 }, () => connect('alice')));
    for (const [i, client] of clients.entries()) {
      client.send({ type: 'subscribe', batchId: batchIds[i % 2] });
      await client.waitFor((all) => all.some((m) => m.type === 'subscribed'));
    }
    for (const batchId of batchIds) {
      hub.deliver(batchStatus(batchId, 1));
      hub.deliver(batchStatus(batchId, 2));
    }
    expect(hub.stats()).toEqual({ connections: 40, rooms: 2, coalescing: 2 });

    for (const client of clients) client.socket.close();
    await expect.poll(() => hub.stats()).toEqual({ connections: 0, rooms: 0, coalescing: 0 });
    expect(released).toHaveLength(40);
  });

  it('leaves the room it was joining when it closes while the status loads', async () => {
    const { hub, batch, connect } = await startHub();
    const loading = gate();
    const batchId = batch('alice', loading);
    const client = await connect('alice');
    client.send({ type: 'subscribe', batchId });
    await loading.entered;
    client.socket.close();
    await expect.poll(() => hub.stats()).toEqual({ connections: 0, rooms: 0, coalescing: 0 });
    loading.open();
  });
});

describe('the heartbeat and shutdown', () => {
  it('renews the places of the sockets still open at each heartbeat', async () => {
    const { connect, renewals } = await startHub({ pingIntervalMs: 30 });
    const staying = await connect('alice');
    const leaving = await connect('alice');
    const lastRenewal = () =>
      renewals
        .at(-1)
        ?.map((socket) => socket.socketId)
        .sort();

    await expect.poll(lastRenewal).toEqual([staying.socketId, leaving.socketId].sort());
    leaving.socket.close();
    await expect.poll(lastRenewal).toEqual([staying.socketId]);
  });

  it('closes every connection with 1001 and gives back every place on shutdown', async () => {
    const { hub, connect, released } = await startHub();
    const clients = [await connect('alice'), await connect('bob')];
    await hub.close();
    for (const client of clients) expect((await client.closed).code).toBe(1001);
    expect(released.map((socket) => socket.socketId).sort()).toEqual(clients.map((c) => c.socketId).sort());
  });
});
