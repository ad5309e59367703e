import { AppError } from '@renamer/contracts';

/**
 * What PostgreSQL (postgres.js), Redis (ioredis) and the network say when a dependency cannot be reached or dropped
 * the connection: the request could not be served now, but may be in a few seconds.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);
const REDIS_DOWN = /^(Connection is closed\.|Stream isn't writeable|Reached the max retries per request limit)/;
const RETRY_AFTER_S = '5';

function isDependencyDown(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  if (error.name === 'MaxRetriesPerRequestError' || REDIS_DOWN.test(error.message)) return true;
  return isDependencyDown(error.cause, depth + 1);
}

/**
 * A failure because PostgreSQL or Redis is away becomes 503 `unavailable` with `Retry-After`, logged as a
 * warning: the service answers at once rather than hanging, and clients know to come back.
 */
export function asUnavailable<E>(error: E): E | AppError {
  return isDependencyDown(error)
    ? new AppError(
        'unavailable',
        'A service this request needs is not answering; try again in a few seconds.',
        undefined,
        {
          'retry-after': RETRY_AFTER_S,
        },
      )
    : error;
}
