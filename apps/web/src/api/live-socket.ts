import { ServerMessage } from '@renamer/contracts';

const MAX_BACKOFF_MS = 10_000;
/** What the API closes a socket with when its credentials end (a sign-out, a ban, a deleted key or account). */
const CREDENTIALS_ENDED = 1008;

export type Connection = 'connecting' | 'live' | 'reconnecting';
type Listener = (message: ServerMessage) => void;

/**
 * The page's one WebSocket to the API (the session cookie signs it in), shared by every view that follows
 * batches: each batch is subscribed once however many views follow it, and again after a reconnection, which
 * happens by itself with a growing pause. A close for ended credentials is not retried: `onSignedOut` is told.
 */
export class LiveSocket {
  private socket: WebSocket | undefined;
  private readonly followers = new Map<string, number>();
  private readonly listeners = new Set<Listener>();
  private readonly watchers = new Set<() => void>();
  private backoff = 500;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  connection: Connection = 'connecting';

  constructor(private readonly onSignedOut: () => void) {
    this.connect();
  }

  follow(batchId: string): () => void {
    const count = this.followers.get(batchId) ?? 0;
    this.followers.set(batchId, count + 1);
    if (count === 0) this.send({ type: 'subscribe', batchId });
    return () => {
      const left = (this.followers.get(batchId) ?? 1) - 1;
      if (left > 0) return void this.followers.set(batchId, left);
      this.followers.delete(batchId);
      this.send({ type: 'unsubscribe', batchId });
    };
  }

  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** For useSyncExternalStore: told whenever `connection` changes. */
  watch = (watcher: () => void): (() => void) => {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  };

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.socket?.close();
  }

  private connect(): void {
    const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
    this.socket = socket;
    socket.onopen = () => {
      this.backoff = 500;
      this.setConnection('live');
      for (const batchId of this.followers.keys()) this.send({ type: 'subscribe', batchId });
    };
    socket.onmessage = (event) => {
      const parsed = ServerMessage.safeParse(JSON.parse(String(event.data)));
      if (parsed.success) for (const listener of this.listeners) listener(parsed.data);
    };
    socket.onclose = (event) => {
      if (this.stopped) return;
      if (event.code === CREDENTIALS_ENDED) {
        this.stopped = true;
        this.onSignedOut();
        return;
      }
      this.setConnection('reconnecting');
      this.timer = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    };
  }

  private send(message: { type: 'subscribe' | 'unsubscribe'; batchId: string }): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private setConnection(connection: Connection): void {
    this.connection = connection;
    for (const watcher of this.watchers) watcher();
  }
}
