import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { assertObjectKey, isValidObjectKey } from './keys';

export interface DownloadLinkClaims {
  key: string;
  expiresAt: Date;
  filename?: string;
  contentType?: string;
}

export type DownloadLinkVerification =
  | { ok: true; key: string; expiresAt: Date; filename?: string; contentType?: string }
  | { ok: false; reason: 'expired' | 'invalid' };

// Values end up in response headers: no control characters, bounded length.
const headerSafe = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}]+$/u);

const Payload = z.strictObject({
  k: z.string().refine(isValidObjectKey),
  e: z.number().int().positive(),
  f: headerSafe(255).optional(),
  t: headerSafe(200).optional(),
});
type Payload = z.infer<typeof Payload>;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Token: `<payload>.<signature>`, both base64url. The payload is JSON `{ k: key, e: expiry in Unix seconds,
 * f?: filename, t?: content type }`; the signature is HMAC-SHA256 over the payload text with a key derived
 * from `secret` for this purpose only, so a token can never double as another signed value (e.g. a cookie).
 */
export function signDownloadLink(claims: DownloadLinkClaims, secret: string): string {
  assertObjectKey(claims.key);
  const payload: Payload = Payload.parse({
    k: claims.key,
    e: Math.floor(claims.expiresAt.getTime() / 1000),
    f: claims.filename,
    t: claims.contentType,
  });
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${signature(encoded, secret)}`;
}

/** Checks the signature before the expiry: a tampered token is 'invalid' whatever expiry it claims. */
export function verifyDownloadLink(token: string, secret: string, now = new Date()): DownloadLinkVerification {
  const invalid = { ok: false, reason: 'invalid' } as const;
  const [encoded, given, ...rest] = token.split('.');
  if (!encoded || !given || rest.length > 0 || !BASE64URL.test(encoded) || !BASE64URL.test(given)) return invalid;

  const expected = Buffer.from(signature(encoded, secret));
  const received = Buffer.from(given);
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) return invalid;

  const payload = Payload.safeParse(parseJson(Buffer.from(encoded, 'base64url').toString()));
  if (!payload.success) return invalid;

  const { k: key, e, f: filename, t: contentType } = payload.data;
  const expiresAt = new Date(e * 1000);
  if (now.getTime() >= expiresAt.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, key, expiresAt, filename, contentType };
}

function signature(encodedPayload: string, secret: string): string {
  const key = createHmac('sha256', secret).update('renamer/download-link/v1').digest();
  return createHmac('sha256', key).update(encodedPayload).digest('base64url');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
