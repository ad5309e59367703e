import type { BatchStatusResponse, ClientMessage, ProgressEvent } from '@renamer/contracts';
import type { CallLog } from '@renamer/service-kit';
import type { WebSocket } from 'ws';
import { type ClientConnection, createClientConnection } from './connection';
import { createRooms } from './rooms';
import type { OpenSocket, UserSocketLimit } from './user-socket-limit';

export interface ProgressHubOptions {
  /** The batch's status for `subscribed`, or null when it is not the user's (answered as not_found). */
  loadOwnBatchStatus: (userId: string, batchId: string) => Promise<BatchStatusResponse | null>;
  /** Counts each user's sockets across instances; the heartbeat renews them. */
  socketLimit: UserSocketLimit;
  maxMessages: number;
  windowMs: number;
  pingIntervalMs: number;
  pongTimeoutMs: number;
}

export interface AcceptedClient extends OpenSocket {
  /** The upgrade request's logger: what goes wrong on the connection is logged with its `requestId`. */
  log: CallLog;
  credentialsStillValid: () => Promise<boolean>;
}

/**
 * This instance's WebSocket rooms, fed by progress events every service publishes on Redis. Only a
 * batch's owner joins its room; `subscribed` always goes out before any event of that room. Each socket
 * holds a place under its user's cap from admission until it closes.
 */
export function createProgressHub(options: ProgressHubOptions) {
  const rooms = createRooms<ClientConnection>();
  /** Each open connection: whose it is, and how to check that its credentials still hold. */
  const connections = new Map<ClientConnection, OpenSocket & { stillValid: () => Promise<boolean> }>();

  const heartbeat = setInterval(() => {
    const deadline = Date.now() - options.pongTimeoutMs;
    for (const connection of connections.keys()) {
      if (connection.lastSeenAt < deadline) connection.socket.terminate();
      else connection.socket.ping();
    }
    void closeRevoked();
    void options.socketLimit.renew(connections.values());
  }, options.pingIntervalMs);
  heartbeat.unref();

  /** A logout, ban, deleted key or expired session ends the connection at the next heartbeat. */
  async function closeRevoked() {
    await Promise.all(
      [...connections].map(async ([connection, { stillValid }]) => {
        if (!(await stillValid())) connection.socket.close(1008, 'credentials no longer valid');
      }),
    );
  }

  async function handle(connection: ClientConnection, joined: Set<string>, userId: string, message: ClientMessage) {
    if (message.type === 'ping') return connection.send({ type: 'pong' });
    if (message.type === 'unsubscribe') {
      rooms.leave(message.batchId, connection);
      joined.delete(message.batchId);
      return connection.send({ type: 'unsubscribed', batchId: message.batchId });
    }
    // Join first and hold the room's events, so none is lost between reading the status and sending it.
    // `joined` is updated before any await, so a socket closing meanwhile still leaves the room.
    connection.holdEvents(message.batchId);
    rooms.join(message.batchId, connection);
    joined.add(message.batchId);
    const leave = () => {
      rooms.leave(message.batchId, connection);
      joined.delete(message.batchId);
      connection.discardEvents(message.batchId);
    };
    const status = await options.loadOwnBatchStatus(userId, message.batchId).catch((error) => {
      leave();
      throw error;
    });
    if (!status) {
      leave();
      return connection.send({ type: 'error', code: 'not_found', message: 'No such batch.' });
    }
    connection.releaseEvents(message.batchId, { type: 'subscribed', batchId: message.batchId, status });
  }

  return {
    /** Counts a new socket of the user, before the upgrade: its id, or `rate_limited` past the cap. */
    admit: (userId: string) => options.socketLimit.admit(userId),

    accept(socket: WebSocket, { userId, socketId, log, credentialsStillValid }: AcceptedClient) {
      const joined = new Set<string>();
      const connection: ClientConnection = createClientConnection(socket, {
        maxMessages: options.maxMessages,
        windowMs: options.windowMs,
        log,
        onMessage: (message) => handle(connection, joined, userId, message),
      });
      connections.set(connection, { userId, socketId, stillValid: credentialsStillValid });
      socket.on('close', () => {
        for (const batchId of joined) rooms.leave(batchId, connection);
        if (connections.delete(connection)) void options.socketLimit.release({ userId, socketId });
      });
    },

    deliver(event: ProgressEvent) {
      if (event.type === 'batch.deleted') {
        for (const member of rooms.close(event.batchId)) member.send({ type: 'unsubscribed', batchId: event.batchId });
        return;
      }
      for (const member of rooms.members(event.batchId)) member.send(event);
    },

    stats: () => ({ connections: connections.size, rooms: rooms.size }),

    async close() {
      clearInterval(heartbeat);
      const open = [...connections];
      connections.clear();
      for (const [connection] of open) connection.socket.close(1001, 'server shutting down');
      // Uncounted now, while Redis is still connected: a socket's own 'close' comes after its closing handshake.
      await Promise.all(open.map(([, socket]) => options.socketLimit.release(socket)));
    },
  };
}

export type ProgressHub = ReturnType<typeof createProgressHub>;
