/** How long a message is tried: after this since its first attempt, a failure is final. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The default first back-off (`WEBHOOKS_RETRY_BASE_MS`): the first retry comes within 30 s. */
export const DEFAULT_RETRY_BASE_MS = 15_000;
/** No wait between two attempts is longer than this. */
export const MAX_RETRY_DELAY_MS = 2 * 60 * 60 * 1000;
/**
 * Messages that failed for good (each after 24 hours of attempts) in a row that disable an endpoint. One is
 * enough: a day of failed attempts (about 20) is the repeated failure; a delivery that arrives resets the streak.
 */
export const DISABLE_AFTER_FAILED_MESSAGES = 1;

/**
 * When the attempt after a failed `attempt` runs, or null when the message has been tried for 24 hours: the
 * wait doubles from `baseMs` (15 s, 30 s, 1 min, …) up to two hours.
 */
export function nextAttemptAt(attempt: number, firstAttemptAt: Date, now: Date, baseMs = DEFAULT_RETRY_BASE_MS) {
  const delay = Math.min(baseMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
  const next = new Date(now.getTime() + delay);
  return next.getTime() - firstAttemptAt.getTime() > RETRY_WINDOW_MS ? null : next;
}
