import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ServerMessage } from '@renamer/contracts';
import type { CallLog } from '@renamer/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { type ClientConnection, createClientConnection } from '../src/ws/connection';
import { frameOnce } from '../src/ws/shared-frames';

const log: CallLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * A loopback ws server whose one connection is made as the hub makes it (with the upgrade request's socket), and a
 * client that keeps each message it receives with whether it came as text.
 */
async function connect(perMessageDeflate: boolean) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate });
  await new Promise((resolve) => server.once('listening', resolve));
  const accepted = new Promise<{ connection: ClientConnection; extensions: string }>((resolve) =>
    server.once('connection', (socket, request) => {
      const connection = createClientConnection(socket, {
        maxMessages: 30,
        windowMs: 10_000,
        maxBufferedBytes: 2 ** 24,
        log,
        raw: request.socket,
        onMessage: async () => undefined,
      });
      resolve({ connection, extensions: socket.extensions });
    }),
  );
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, { perMessageDeflate });
  const received: { message: ServerMessage; text: boolean }[] = [];
  client.on('message', (data, isBinary) =>
    received.push({ message: JSON.parse(data.toString()) as ServerMessage, text: !isBinary }),
  );
  closers.push(async () => {
    client.terminate();
    await new Promise((resolve) => server.close(resolve));
  });
  return { ...(await accepted), received };
}

const event = (batchId: string): ServerMessage => ({ type: 'unsubscribed', batchId });
/** Several hundred kB that permessage-deflate compresses asynchronously, so ws queues what follows it. */
const large: ServerMessage = { type: 'error', code: 'internal', message: 'a slow one '.repeat(40_000) };

describe('shared frames', () => {
  it('reach each member as one text message, in order with what ws sends itself', async () => {
    const { connection, extensions, received } = await connect(false);
    expect(extensions).toBe('');
    const batchId = randomUUID();
    const shared = frameOnce(event(batchId));
    connection.send({ type: 'pong' });
    connection.sendEvent(batchId, shared);
    connection.send(large);
    connection.sendEvent(batchId, shared);
    await expect.poll(() => received.length).toBe(4);
    expect(received).toEqual([
      { message: { type: 'pong' }, text: true },
      { message: event(batchId), text: true },
      { message: large, text: true },
      { message: event(batchId), text: true },
    ]);
  });

  it('go through ws’s own send when permessage-deflate is negotiated, so a queued message is never overtaken', async () => {
    const { connection, extensions, received } = await connect(true);
    expect(extensions).toContain('permessage-deflate');
    const batchId = randomUUID();
    connection.send(large);
    connection.sendEvent(batchId, frameOnce(event(batchId)));
    await expect.poll(() => received.length).toBe(2);
    expect(received.map(({ message }) => message.type)).toEqual(['error', 'unsubscribed']);
  });
});
