import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'rn_';
/** Characters of the key kept for display, so people can tell their keys apart. */
const DISPLAY_PREFIX_LENGTH = 11;

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A new key: 32 random bytes, shown once; only its SHA-256 hash and a short prefix are stored. */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

export const looksLikeApiKey = (value: string) => value.startsWith(KEY_PREFIX) && value.length < 200;
