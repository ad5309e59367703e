import type { ByteRange } from './object-store';

/** The longest link S3 can presign (7 days); the filesystem driver keeps the same bound. */
export const MAX_LINK_EXPIRY_SECONDS = 7 * 24 * 60 * 60;

export function assertObjectSize(size: number): void {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`size must be a non-negative integer, got ${size}`);
}

export function assertByteRange({ offset, length }: ByteRange): void {
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new RangeError(`range offset must be a non-negative integer, got ${offset}`);
  }
  if (length !== undefined && (!Number.isSafeInteger(length) || length < 1)) {
    throw new RangeError(`range length must be a positive integer, got ${length}`);
  }
}

/** Whole seconds, as S3 presigning counts them, so both drivers report the same expiry. */
export function linkExpiry(now: Date, expiresInSeconds: number): Date {
  if (!Number.isSafeInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_LINK_EXPIRY_SECONDS) {
    throw new RangeError(`expiresInSeconds must be an integer from 1 to ${MAX_LINK_EXPIRY_SECONDS}`);
  }
  return new Date((Math.floor(now.getTime() / 1000) + expiresInSeconds) * 1000);
}
