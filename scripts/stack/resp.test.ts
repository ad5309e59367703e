import { describe, expect, it } from 'vitest';
import { deleteKeysWithPrefix, encodeCommand, escapeGlob, parseReply, pingRedis, RedisConnection } from './resp';

// npm test hands every run its own Redis and key prefix; plain `vitest` falls back to a local Redis.
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = process.env.REDIS_PREFIX ?? 'renamer-resp-test:';

describe('RESP encoding', () => {
  it('encodes a command as an array of bulk strings', () => {
    expect(encodeCommand(['SET', 'k', 'é'])).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\né\r\n');
  });

  it('parses every RESP2 reply type, nested arrays included', () => {
    const reply = Buffer.from('*4\r\n+OK\r\n:7\r\n$-1\r\n*2\r\n$3\r\nabc\r\n-ERR bad\r\n');
    const parsed = parseReply(reply)!;
    expect(parsed.next).toBe(reply.length);
    const [ok, seven, nil, [abc, error]] = parsed.value as [string, number, null, [string, Error]];
    expect([ok, seven, nil, abc]).toEqual(['OK', 7, null, 'abc']);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('ERR bad');
  });

  it('waits for the rest of a reply split across packets', () => {
    expect(parseReply(Buffer.from('$5\r\nhel'))).toBeUndefined();
    expect(parseReply(Buffer.from('*2\r\n:1\r\n'))).toBeUndefined();
  });

  it('escapes glob characters so a prefix matches only itself', () => {
    expect(escapeGlob('a*b?[c]\\')).toBe('a\\*b\\?\\[c\\]\\\\');
  });
});

describe('against a real Redis', () => {
  it('answers PING', async () => {
    expect(await pingRedis(redisUrl)).toEqual({ ok: true });
  });

  it('reports a port where nothing listens', async () => {
    const result = await pingRedis('redis://127.0.0.1:1');
    expect(result.ok).toBe(false);
  });

  it('deletes the keys under a prefix and only those', async () => {
    const mine = `${prefix}cleanup-test:`;
    const neighbour = `${prefix}cleanup-test-other:`;
    const connection = await RedisConnection.open(redisUrl);
    try {
      for (let i = 0; i < 1500; i++) await connection.expect(['SET', `${mine}${i}`, 'x']);
      await connection.expect(['SET', `${neighbour}kept`, 'x']);
      expect(await deleteKeysWithPrefix(redisUrl, mine)).toBe(1500);
      expect(await connection.expect(['EXISTS', `${mine}0`, `${mine}1499`])).toBe(0);
      expect(await connection.expect(['EXISTS', `${neighbour}kept`])).toBe(1);
    } finally {
      await connection.expect(['DEL', `${neighbour}kept`]);
      connection.close();
    }
  });
});
