import type { Duplex } from 'node:stream';
import { ClientMessage, type ServerMessage } from '@renamer/contracts';
import { type CallLog, parseJsonOrUndefined } from '@renamer/runtime';
import type { WebSocket } from 'ws';
import { createMessageRate } from './message-rate';
import { type SharedFrame, sharedFrameWriter } from './shared-frames';

export interface ConnectionOptions {
  maxMessages: number;
  windowMs: number;
  /** Past this many bytes not yet taken by the client, the socket is dropped rather than buffer more. */
  maxBufferedBytes: number;
  log: CallLog;
  /** The socket the upgrade request came on (`request.raw.socket`): room events' shared frames are written to it. */
  raw?: Duplex;
  onMessage: (message: ClientMessage) => Promise<void>;
}

/**
 * One client socket: validated messages in and out, a message rate limit (`rate_limited`, then close
 * 1008), a per-batch buffer so that room events wait until `subscribed` has gone out, and a bound on
 * what the socket may leave unsent.
 */
export function createClientConnection(socket: WebSocket, options: ConnectionOptions) {
  const rate = createMessageRate(options.maxMessages, options.windowMs);
  const pending = new Map<string, SharedFrame[]>();
  let lastSeenAt = Date.now();

  // A client that stops reading is terminated, not closed: a close frame would wait behind the data it
  // does not read, and the socket would hold that memory until ws's closing timeout.
  const writable = () => {
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount <= options.maxBufferedBytes) return true;
    options.log.warn({ bufferedAmount: socket.bufferedAmount }, 'websocket dropped: the client stopped reading');
    socket.terminate();
    return false;
  };
  const writeShared = sharedFrameWriter(socket, options.raw);
  /** A room event, framed once for every member (`frameOnce`). */
  const write = (frame: SharedFrame) => {
    if (writable()) writeShared(frame);
  };
  // Text frames, as the contract's clients expect.
  const send = (message: ServerMessage) => {
    if (writable()) socket.send(Buffer.from(JSON.stringify(message)), { binary: false });
  };

  const connection = {
    socket,
    send,
    /** A room's event of `batchId`, framed once; held while that batch's `subscribed` is pending. */
    sendEvent(batchId: string, frame: SharedFrame) {
      const held = pending.get(batchId);
      if (held) held.push(frame);
      else write(frame);
    },
    /** Events of `batchId` are held from now until `subscribed(batchId, …)` is sent. */
    holdEvents(batchId: string) {
      pending.set(batchId, []);
    },
    /** Drops what was held for `batchId`: the caller may not see it (not the owner, or an error). */
    discardEvents(batchId: string) {
      pending.delete(batchId);
    },
    releaseEvents(batchId: string, first: ServerMessage) {
      const held = pending.get(batchId) ?? [];
      pending.delete(batchId);
      send(first);
      for (const frame of held) write(frame);
    },
    /** When the client last answered a ping or sent a message. */
    get lastSeenAt() {
      return lastSeenAt;
    },
  };

  socket.on('message', async (data) => {
    lastSeenAt = Date.now();
    const verdict = rate();
    if (verdict === 'close') return socket.close(1008, 'message rate limit exceeded');
    if (verdict === 'limited') {
      return send({
        type: 'error',
        code: 'rate_limited',
        message: `At most ${options.maxMessages} messages per ${options.windowMs / 1000} s.`,
      });
    }
    const parsed = ClientMessage.safeParse(parseJsonOrUndefined(data.toString()));
    if (!parsed.success) {
      return send({
        type: 'error',
        code: 'validation_failed',
        message: 'Send subscribe, unsubscribe or ping messages as JSON.',
      });
    }
    await options.onMessage(parsed.data).catch((err) => {
      options.log.error({ err, message: parsed.data }, 'websocket message failed');
      send({ type: 'error', code: 'internal', message: 'That message could not be handled; try again.' });
    });
  });
  socket.on('pong', () => {
    lastSeenAt = Date.now();
  });
  return connection;
}

export type ClientConnection = ReturnType<typeof createClientConnection>;
