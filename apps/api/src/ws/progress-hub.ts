import type { Duplex } from 'node:stream';
import type {
  BatchStatusResponse,
  ClientMessage,
  CredentialsEnded,
  ProgressEvent,
  ServerMessage,
} from '@renamer/contracts';
import type { CallLog } from '@renamer/runtime';
import type { WebSocket } from 'ws';
import { createBatchStatusCoalescer } from './batch-status-coalescer';
import { type ClientConnection, createClientConnection } from './connection';
import { type CredentialCheck, createCredentialRecheck, type SocketCredential } from './credential-recheck';
import { createRooms } from './rooms';
import { frameOnce } from './shared-frames';
import type { OpenSocket, UserSocketLimit } from './user-socket-limit';

export interface ProgressHubOptions {
  /** The batch's status for `subscribed`, or null when it is not the user's (answered as not_found). */
  loadOwnBatchStatus: (userId: string, batchId: string) => Promise<BatchStatusResponse | null>;
  /** Which of the sockets' credentials still hold, in one round trip. */
  checkCredentials: CredentialCheck;
  /** Counts each user's sockets across instances; the heartbeat renews them. */
  socketLimit: UserSocketLimit;
  maxMessages: number;
  windowMs: number;
  pingIntervalMs: number;
  pongTimeoutMs: number;
  /** A room gets at most one `batch.status` per batch this often (the last one always). */
  statusIntervalMs: number;
  /** A socket whose client leaves more than this unread is dropped. */
  maxBufferedBytes: number;
}

export interface AcceptedClient extends OpenSocket {
  /** The upgrade request's logger: what goes wrong on the connection is logged with its `requestId`. */
  log: CallLog;
  /** The session or API key the socket was opened with, re-checked once every ping interval. */
  credential: SocketCredential;
  /** The socket the upgrade request came on (`request.raw.socket`), for room events' shared frames. */
  raw?: Duplex;
}

/**
 * This instance's WebSocket rooms, fed by progress events every service publishes on Redis. Only a
 * batch's owner joins its room; `subscribed` always goes out before any event of that room. Each event is
 * framed once and the same bytes go to every member (`shared-frames.ts`). Each socket holds a place under its user's cap
 * from admission until it closes.
 */
export function createProgressHub(options: ProgressHubOptions) {
  const rooms = createRooms<ClientConnection>();
  /** Each open connection: whose it is, and what it was opened with. */
  const connections = new Map<ClientConnection, OpenSocket & { credential: SocketCredential }>();

  const broadcast = (batchId: string, message: ServerMessage, members: readonly ClientConnection[]) => {
    const frame = frameOnce(message);
    for (const member of members) member.sendEvent(batchId, frame);
  };
  const statuses = createBatchStatusCoalescer(options.statusIntervalMs, (event) =>
    broadcast(event.batchId, event, rooms.members(event.batchId)),
  );
  // Logouts, bans and deletions are announced and close the connection at once; an expiry, or an announcement
  // lost, ends it within one ping interval.
  const recheck = createCredentialRecheck({
    sockets: connections,
    intervalMs: options.pingIntervalMs,
    check: options.checkCredentials,
    onInvalid: (connection) => connection.socket.close(1008, 'credentials no longer valid'),
  });

  const heartbeat = setInterval(() => {
    const deadline = Date.now() - options.pongTimeoutMs;
    for (const connection of connections.keys()) {
      if (connection.lastSeenAt < deadline) connection.socket.terminate();
      else connection.socket.ping();
    }
    void options.socketLimit.renew(connections.values());
  }, options.pingIntervalMs);
  heartbeat.unref();

  const leaveRoom = (batchId: string, connection: ClientConnection) => {
    rooms.leave(batchId, connection);
    if (!rooms.has(batchId)) statuses.drop(batchId);
  };

  async function handle(connection: ClientConnection, joined: Set<string>, userId: string, message: ClientMessage) {
    if (message.type === 'ping') return connection.send({ type: 'pong' });
    if (message.type === 'unsubscribe') {
      leaveRoom(message.batchId, connection);
      joined.delete(message.batchId);
      return connection.sendEvent(message.batchId, frameOnce({ type: 'unsubscribed', batchId: message.batchId }));
    }
    // Join first and hold the room's events, so none is lost between reading the status and sending it.
    // `joined` is updated before any await, so a socket closing meanwhile still leaves the room.
    connection.holdEvents(message.batchId);
    rooms.join(message.batchId, connection);
    joined.add(message.batchId);
    const leave = () => {
      leaveRoom(message.batchId, connection);
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

    accept(socket: WebSocket, { userId, socketId, log, credential, raw }: AcceptedClient) {
      const joined = new Set<string>();
      const connection: ClientConnection = createClientConnection(socket, {
        maxMessages: options.maxMessages,
        windowMs: options.windowMs,
        maxBufferedBytes: options.maxBufferedBytes,
        log,
        raw,
        onMessage: (message) => handle(connection, joined, userId, message),
      });
      connections.set(connection, { userId, socketId, credential });
      socket.on('close', () => {
        for (const batchId of joined) leaveRoom(batchId, connection);
        joined.clear();
        if (connections.delete(connection)) void options.socketLimit.release({ userId, socketId });
      });
    },

    deliver(event: ProgressEvent) {
      if (!rooms.has(event.batchId)) return;
      if (event.type === 'batch.deleted') {
        statuses.flush(event.batchId);
        broadcast(event.batchId, { type: 'unsubscribed', batchId: event.batchId }, rooms.close(event.batchId));
        return;
      }
      statuses.push(event);
    },

    /** Closes at once, with 1008, the sockets opened by the user or with the session or key that ended. */
    endCredentials(ended: CredentialsEnded) {
      for (const [connection, { userId, credential }] of connections) {
        if ('userId' in ended ? userId === ended.userId : credential.id === ended.credentialId) {
          connection.socket.close(1008, 'credentials no longer valid');
        }
      }
    },

    /**
     * The progress feed was interrupted (Redis dropped the subscription): events published meanwhile are lost, so
     * every socket with a room is closed with 1012, for its client to reconnect and hear each batch as it stands.
     */
    feedInterrupted() {
      for (const connection of rooms.everyMember())
        connection.socket.close(1012, 'progress feed interrupted: reconnect');
    },

    /** Open connections, rooms, and batches whose statuses are being coalesced: all zero once every socket closed. */
    stats: () => ({ connections: connections.size, rooms: rooms.size, coalescing: statuses.size }),

    async close() {
      clearInterval(heartbeat);
      recheck.stop();
      const open = [...connections];
      connections.clear();
      for (const [connection] of open) connection.socket.close(1001, 'server shutting down');
      // Uncounted now, while Redis is still connected: a socket's own 'close' comes after its closing handshake.
      await Promise.all(open.map(([, socket]) => options.socketLimit.release(socket)));
    },
  };
}

export type ProgressHub = ReturnType<typeof createProgressHub>;
