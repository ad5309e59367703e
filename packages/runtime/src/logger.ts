import { createRequire } from 'node:module';
import { activeTraceFields, tracingEnabled } from '@renamer/telemetry';
import { type DestinationStream, type Logger, pino, type StreamEntry, type TransportTargetOptions } from 'pino';
import type { PlatformEnv } from './env';

export type { Logger };

/**
 * Development writes readable lines through pino-pretty, which pino runs on a worker thread of its own
 * (a transport), each line naming its service; `npm start` lets every service write to the terminal itself.
 * Production writes JSON lines to stdout through pino's asynchronous destination, so a request never waits on
 * the write (pino flushes it synchronously when the process exits, shutdown included). Lines are gathered into
 * writes of at least PRODUCTION_WRITE_BYTES, one system call for a dozen request lines under load, and flushed
 * at least every PRODUCTION_FLUSH_MS when traffic is light. Tests write the same lines synchronously, so none is
 * lost when a test ends.
 */
const PRETTY_TRANSPORT = {
  target: 'pino-pretty',
  options: {
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    messageFormat: '[{service}] {msg}',
    singleLine: true,
  },
};

const PRODUCTION_WRITE_BYTES = 4096;
const PRODUCTION_FLUSH_MS = 500;

function productionDestination() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: PRODUCTION_WRITE_BYTES });
  // With a callback, flushing a destination already closed at shutdown reports instead of throwing.
  setInterval(() => destination.flush(() => {}), PRODUCTION_FLUSH_MS).unref();
  return destination;
}

/** Where a service's warnings and errors go besides stdout: a capped Redis stream the admin API reads. */
export interface LogShipping {
  redisUrl: string;
  /** The stream's key (`logStreamKey`). */
  key: string;
  maxEntries: number;
  retentionMs: number;
}

/** The stream every service of one environment (one Redis prefix) ships its warnings and errors to. */
export const logStreamKey = (redisPrefix: string) => `${redisPrefix}logs`;

/** The shipping a service's environment asks for, or none. */
export function logShippingFromEnv(env: PlatformEnv): LogShipping | undefined {
  if (!env.LOG_SHIPPING) return undefined;
  return {
    redisUrl: env.REDIS_URL,
    key: logStreamKey(env.REDIS_PREFIX),
    maxEntries: env.LOG_STREAM_MAX_ENTRIES,
    retentionMs: env.LOG_STREAM_RETENTION_HOURS * 3600 * 1000,
  };
}

/** The lines shipped: warnings and worse, whatever the service's own level. */
const SHIPPED_LEVEL = 'warn';
// Through the package's exports, so that a service bundled into one file (the Docker image) finds it too.
const SHIPPING_TRANSPORT = createRequire(import.meta.url).resolve('@renamer/runtime/log-shipping-transport');

const shippingTarget = (shipping: LogShipping): TransportTargetOptions => ({
  target: SHIPPING_TRANSPORT,
  level: SHIPPED_LEVEL,
  options: shipping,
});

export function createLogger(
  service: string,
  level: string,
  nodeEnv?: PlatformEnv['NODE_ENV'],
  shipping?: LogShipping,
): Logger {
  const options = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    // The trace and span of the line's request or job; without tracing there is no mixin at all.
    ...(tracingEnabled() ? { mixin: activeTraceFields } : {}),
  };
  if (nodeEnv === 'development') {
    const pretty = { ...PRETTY_TRANSPORT, level };
    return pino({ ...options, transport: { targets: shipping ? [pretty, shippingTarget(shipping)] : [pretty] } });
  }
  const stdout = nodeEnv === 'production' ? productionDestination() : pino.destination({ dest: 1, sync: true });
  if (!shipping || level === 'silent') return pino(options, stdout);
  // The shipping stream is told only what it keeps: below `warn`, multistream skips it without a copy.
  const streams: StreamEntry[] = [
    { stream: stdout, level: level as pino.Level },
    { stream: pino.transport(shippingTarget(shipping)) as DestinationStream, level: SHIPPED_LEVEL },
  ];
  return pino(options, pino.multistream(streams));
}
