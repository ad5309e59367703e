import type { Logger } from './logger';

/**
 * What a service call logs through. Callers pass the request's logger (`request.log`), so the service's
 * lines carry that request's `requestId`.
 */
export type CallLog = Pick<Logger, 'info' | 'warn' | 'error'>;
