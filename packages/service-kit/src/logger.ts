import { type Logger, pino } from 'pino';
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

export function createLogger(service: string, level: string, nodeEnv?: PlatformEnv['NODE_ENV']): Logger {
  const options = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
  };
  if (nodeEnv === 'development') return pino({ ...options, transport: PRETTY_TRANSPORT });
  if (nodeEnv === 'production') return pino(options, productionDestination());
  return pino(options);
}
