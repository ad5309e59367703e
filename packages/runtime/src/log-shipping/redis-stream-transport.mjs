// A pino transport (it runs on pino's worker thread, never on a service's event loop): each line it is given
// goes to a capped Redis stream that the admin API reads (GET /api/admin/logs). Plain JavaScript, so that the
// worker thread loads it however the service itself was started.
import { Redis } from 'ioredis';
import build from 'pino-abstract-transport';

const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const TRIM_EVERY_MS = 60_000;
/** Lines given meanwhile wait in the transport's buffer; past this, they go (or are dropped) as Redis allows. */
const CONNECT_WAIT_MS = 3_000;

/** What an operator reads of a line: never the request's headers or body, only the error's type and message. */
function entryOf(line) {
  const entry = {
    time: line.time ?? new Date().toISOString(),
    level: LEVELS[line.level] ?? String(line.level),
    service: line.service ?? 'unknown',
    msg: line.msg ?? '',
  };
  if (line.requestId) entry.requestId = String(line.requestId);
  if (line.traceId) entry.traceId = String(line.traceId);
  if (line.err) entry.err = { type: line.err.type ?? 'Error', message: String(line.err.message ?? '') };
  return entry;
}

/**
 * Options: `redisUrl`, `key` (the stream), `maxEntries` (the stream is capped near it) and `retentionMs`
 * (older entries are trimmed once a minute). While Redis is unreachable lines are dropped, never queued:
 * stdout keeps them, and a service's memory never grows with an outage.
 */
export default async function redisStreamTransport({ redisUrl, key, maxEntries, retentionMs }) {
  const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on('error', () => {});
  await new Promise((resolve) => {
    redis.once('ready', resolve);
    setTimeout(resolve, CONNECT_WAIT_MS).unref();
  });
  const trim = setInterval(() => {
    redis.xtrim(key, 'MINID', '~', `${Date.now() - retentionMs}-0`).catch(() => {});
  }, TRIM_EVERY_MS);
  trim.unref();
  return build(
    async (source) => {
      for await (const line of source) {
        redis.xadd(key, 'MAXLEN', '~', String(maxEntries), '*', 'entry', JSON.stringify(entryOf(line))).catch(() => {});
      }
    },
    {
      async close() {
        clearInterval(trim);
        await redis.quit().catch(() => redis.disconnect());
      },
    },
  );
}
