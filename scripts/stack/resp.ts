import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/** A reply in RESP2, the protocol every Redis speaks by default. */
export type Reply = string | number | null | Error | Reply[];

interface Parsed {
  value: Reply;
  next: number;
}

/** Parses one reply starting at `offset`, or returns undefined when the buffer does not hold all of it yet. */
export function parseReply(buffer: Buffer, offset = 0): Parsed | undefined {
  const lineEnd = buffer.indexOf('\r\n', offset);
  if (lineEnd === -1) return undefined;
  const type = String.fromCharCode(buffer[offset] ?? 0);
  const line = buffer.toString('utf8', offset + 1, lineEnd);
  const afterLine = lineEnd + 2;
  switch (type) {
    case '+':
      return { value: line, next: afterLine };
    case '-':
      return { value: new Error(line), next: afterLine };
    case ':':
      return { value: Number(line), next: afterLine };
    case '$': {
      const length = Number(line);
      if (length < 0) return { value: null, next: afterLine };
      if (buffer.length < afterLine + length + 2) return undefined;
      return { value: buffer.toString('utf8', afterLine, afterLine + length), next: afterLine + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, next: afterLine };
      const items: Reply[] = [];
      let next = afterLine;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, next);
        if (!item) return undefined;
        items.push(item.value);
        next = item.next;
      }
      return { value: items, next };
    }
    default:
      throw new Error(`unexpected reply from Redis: ${JSON.stringify(buffer.toString('utf8', offset, lineEnd))}`);
  }
}

export function encodeCommand(args: string[]): string {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
}

/** One connection that sends a command at a time; enough for a probe and a cleanup, no dependency needed. */
export class RedisConnection {
  private buffer = Buffer.alloc(0);
  private pending: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk) => this.receive(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  /** Connects, authenticates and selects the database named in a redis:// or rediss:// URL. */
  static async open(url: string, timeoutMs = 2000): Promise<RedisConnection> {
    const { hostname, port, protocol, username, password, pathname } = new URL(url);
    const host = hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
    const options = { host, port: Number(port || 6379), timeout: timeoutMs };
    const socket = protocol === 'rediss:' ? connectTls({ ...options, servername: host }) : connectTcp(options);
    await new Promise<void>((resolve, reject) => {
      socket.once(protocol === 'rediss:' ? 'secureConnect' : 'connect', resolve);
      socket.once('error', reject);
      socket.once('timeout', () => reject(new Error(`no answer within ${timeoutMs} ms`)));
    }).catch((error: Error) => {
      socket.destroy();
      throw error;
    });
    socket.setTimeout(0);
    const connection = new RedisConnection(socket);
    try {
      if (password) {
        const credentials = [decodeURIComponent(username), decodeURIComponent(password)].filter(Boolean);
        await connection.expect(['AUTH', ...credentials]);
      }
      const database = pathname.slice(1);
      if (database && database !== '0') await connection.expect(['SELECT', database]);
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  command(args: string[]): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending) return Promise.reject(new Error('one command at a time'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(encodeCommand(args));
    });
  }

  /** Like `command`, but a Redis error reply rejects. */
  async expect(args: string[]): Promise<Reply> {
    const reply = await this.command(args);
    if (reply instanceof Error) throw new Error(`${args[0]}: ${reply.message}`);
    return reply;
  }

  close(): void {
    this.failure ??= new Error('connection closed');
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const parsed = parseReply(this.buffer);
    if (!parsed || !this.pending) return;
    this.buffer = this.buffer.subarray(parsed.next);
    const { resolve } = this.pending;
    this.pending = undefined;
    resolve(parsed.value);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }
}

export type PingResult = { ok: true } | { ok: false; reason: string };

export async function pingRedis(url: string, timeoutMs = 1000): Promise<PingResult> {
  let connection: RedisConnection | undefined;
  try {
    connection = await RedisConnection.open(url, timeoutMs);
    const reply = await connection.expect(['PING']);
    return reply === 'PONG' ? { ok: true } : { ok: false, reason: `PING answered ${JSON.stringify(reply)}` };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  } finally {
    connection?.close();
  }
}

/** Glob-escapes a literal so SCAN MATCH treats it as itself. */
export function escapeGlob(literal: string): string {
  return literal.replace(/[*?[\]\\]/g, '\\$&');
}

/** Deletes every key that starts with `prefix` (SCAN + UNLINK); returns how many went. */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<number> {
  const connection = await RedisConnection.open(url);
  try {
    let cursor = '0';
    let deleted = 0;
    do {
      const reply = await connection.expect(['SCAN', cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', '1000']);
      const [nextCursor, keys] = reply as [string, string[]];
      if (keys.length) deleted += (await connection.expect(['UNLINK', ...keys])) as number;
      cursor = nextCursor;
    } while (cursor !== '0');
    return deleted;
  } finally {
    connection.close();
  }
}
