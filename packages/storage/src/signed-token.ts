import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';

/** The expiry (Unix seconds) every signed payload carries. */
export interface ExpiringPayload {
  e: number;
}

export type SignedTokenVerification<P> = { ok: true; payload: P } | { ok: false; reason: 'expired' | 'invalid' };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * `<payload>.<signature>`, both base64url: the payload is JSON, the signature HMAC-SHA256 over the payload
 * text with a key derived from `secret` and `purpose`, so a token signed for one purpose (a stored object's
 * link, an archive's) never passes for another, nor for anything else signed with the same secret.
 */
export function signToken(purpose: string, payload: ExpiringPayload, secret: string): string {
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${signature(purpose, encoded, secret)}`;
}

/**
 * Checks the signature (in constant time) before the expiry, so a token whose expiry was changed is
 * 'invalid', not 'expired'; then the payload's shape.
 */
export function verifyToken<S extends z.ZodType<ExpiringPayload>>(
  purpose: string,
  schema: S,
  token: string,
  secret: string,
  now = new Date(),
): SignedTokenVerification<z.infer<S>> {
  const invalid = { ok: false, reason: 'invalid' } as const;
  const [encoded, given, ...rest] = token.split('.');
  if (!encoded || !given || rest.length > 0 || !BASE64URL.test(encoded) || !BASE64URL.test(given)) return invalid;

  const expected = Buffer.from(signature(purpose, encoded, secret));
  const received = Buffer.from(given);
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) return invalid;

  const payload = schema.safeParse(parseJson(Buffer.from(encoded, 'base64url').toString()));
  if (!payload.success) return invalid;
  if (now.getTime() >= payload.data.e * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, payload: payload.data };
}

function signature(purpose: string, encodedPayload: string, secret: string): string {
  const key = createHmac('sha256', secret).update(purpose).digest();
  return createHmac('sha256', key).update(encodedPayload).digest('base64url');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
