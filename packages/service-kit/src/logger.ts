import { type Logger, pino } from 'pino';
import type { PlatformEnv } from './env';

export type { Logger };

/**
 * Development writes readable lines through pino-pretty, which pino runs on a worker thread of its own
 * (a transport); `npm start` prefixes them with the service's name, hence no `service` on the line. Test
 * and production write JSON lines to stdout, for log shippers.
 */
const PRETTY_TRANSPORT = {
  target: 'pino-pretty',
  options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', singleLine: true },
};

export function createLogger(service: string, level: string, nodeEnv?: PlatformEnv['NODE_ENV']): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    ...(nodeEnv === 'development' && { transport: PRETTY_TRANSPORT }),
  });
}
