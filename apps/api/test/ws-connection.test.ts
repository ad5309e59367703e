import { EventEmitter } from 'node:events';
import type { ServerMessage } from '@renamer/contracts';
import type { CallLog } from '@renamer/runtime';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { createClientConnection } from '../src/ws/connection';

/** The part of a `ws` socket a connection uses, keeping what it sends. */
function fakeSocket() {
  const sent: ServerMessage[] = [];
  const socket = Object.assign(new EventEmitter(), {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    send: (data: Buffer) => sent.push(JSON.parse(data.toString())),
    close: () => undefined,
  });
  return { socket: socket as unknown as WebSocket, sent };
}

describe('a WebSocket connection whose message handling fails', () => {
  it('answers an internal error and logs the cause through the upgrade request logger', async () => {
    const { socket, sent } = fakeSocket();
    const logged: unknown[][] = [];
    const log = { error: (...line: unknown[]) => logged.push(line), warn: () => undefined, info: () => undefined };
    createClientConnection(socket, {
      maxMessages: 10,
      windowMs: 1_000,
      maxBufferedBytes: 2 ** 20,
      log: log as unknown as CallLog,
      onMessage: () => Promise.reject(new Error('connection to PostgreSQL lost')),
    });
    socket.emit('message', Buffer.from(JSON.stringify({ type: 'ping' })));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([expect.objectContaining({ type: 'error', code: 'internal' })]);
    expect(JSON.stringify(sent)).not.toContain('PostgreSQL');
    expect(logged).toEqual([[expect.objectContaining({ err: expect.any(Error) }), 'websocket message failed']]);
  });
});
