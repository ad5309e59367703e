import { type Logger, pino } from 'pino';
import type { PlatformEnv } from './env';

export type { Logger };

/**
 * Development writes readable lines through pino-pretty, which pino runs on a worker thread of its own
 * (a transport), each line naming its service; `npm start` lets every service write to the terminal itself.
 * Production writes JSON lines to stdout through pino's asynchronous destination, so a request never waits on
 * the write (pino flushes it synchronously when the process exits, shutdown included); tests write the same
 * lines synchronously, so none is lost when a test ends.
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
  if (nodeEnv === 'production') return pino(options, pino.destination({ dest: 1, sync: false }));
  return pino(options);
}
