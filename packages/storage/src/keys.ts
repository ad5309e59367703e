import { InvalidObjectKeyError } from './errors';

export const MAX_KEY_LENGTH = 1024;
/** Leaves room under the usual 255-byte file name limit for the filesystem driver's sidecar suffix. */
export const MAX_SEGMENT_LENGTH = 200;

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Why `key` is not a valid key, or undefined when it is. The one place the key rules live. */
export function objectKeyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string') return 'must be a string';
  if (key.length === 0) return 'must not be empty';
  if (key.length > MAX_KEY_LENGTH) return `must be at most ${MAX_KEY_LENGTH} characters`;
  for (const segment of key.split('/')) {
    const problem = segmentProblem(segment);
    if (problem) return problem;
  }
  return undefined;
}

export function isValidObjectKey(key: unknown): key is string {
  return objectKeyProblem(key) === undefined;
}

export function assertObjectKey(key: unknown): asserts key is string {
  const problem = objectKeyProblem(key);
  if (problem) throw new InvalidObjectKeyError(key, problem);
}

/** A prefix names whole segments (`users/42` lists `users/42/…`, not `users/420/…`); '' means every key. */
export function assertObjectPrefix(prefix: unknown): asserts prefix is string {
  if (prefix !== '') assertObjectKey(prefix);
}

export function isValidSegment(segment: string): boolean {
  return segmentProblem(segment) === undefined;
}

/** Joins segments into a key; each part must be one segment, so an id holding `/` cannot add levels. */
export function objectKey(...segments: string[]): string {
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem) throw new InvalidObjectKeyError(segment, problem);
  }
  const key = segments.join('/');
  assertObjectKey(key);
  return key;
}

function segmentProblem(segment: string): string | undefined {
  if (segment.length === 0) return 'must not start or end with "/" or contain "//"';
  if (segment === '.' || segment === '..') return 'must not contain "." or ".." segments';
  if (segment.length > MAX_SEGMENT_LENGTH) return `segments must be at most ${MAX_SEGMENT_LENGTH} characters`;
  if (!SEGMENT.test(segment)) return 'segments may only contain A-Z, a-z, 0-9, ".", "_" and "-"';
  return undefined;
}
