import { ClientMessage, type ServerMessage } from '@renamer/contracts';
import type { CallLog } from '@renamer/service-kit';
import type { WebSocket } from 'ws';
import { createMessageRate } from './message-rate';

export interface ConnectionOptions {
  maxMessages: number;
  windowMs: number;
  log: CallLog;
  onMessage: (message: ClientMessage) => Promise<void>;
}

/**
 * One client socket: validated messages in and out, a message rate limit (`rate_limited`, then close
 * 1008), and a per-batch buffer so that room events wait until `subscribed` has gone out.
 */
export function createClientConnection(socket: WebSocket, options: ConnectionOptions) {
  const rate = createMessageRate(options.maxMessages, options.windowMs);
  const pending = new Map<string, ServerMessage[]>();
  let lastSeenAt = Date.now();

  const send = (message: ServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };

  const connection = {
    socket,
    send(message: ServerMessage) {
      const batchId = 'batchId' in message ? message.batchId : undefined;
      const buffer = batchId && message.type !== 'subscribed' ? pending.get(batchId) : undefined;
      if (buffer) buffer.push(message);
      else send(message);
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
      for (const message of held) send(message);
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
    const parsed = ClientMessage.safeParse(parseJson(data.toString()));
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
