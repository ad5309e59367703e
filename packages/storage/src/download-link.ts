import { z } from 'zod';
import { assertObjectKey, isValidObjectKey } from './keys';
import { signToken, verifyToken } from './signed-token';

export interface DownloadLinkClaims {
  key: string;
  expiresAt: Date;
  filename?: string;
  contentType?: string;
}

export type DownloadLinkVerification =
  | { ok: true; key: string; expiresAt: Date; filename?: string; contentType?: string }
  | { ok: false; reason: 'expired' | 'invalid' };

const PURPOSE = 'renamer/download-link/v1';

/** Values end up in response headers: no control characters, bounded length. */
export const headerSafe = (max: number) =>
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

/**
 * A signed token (see `signToken`) whose payload is JSON `{ k: key, e: expiry in Unix seconds, f?: filename,
 * t?: content type }`.
 */
export function signDownloadLink(claims: DownloadLinkClaims, secret: string): string {
  assertObjectKey(claims.key);
  const payload: Payload = Payload.parse({
    k: claims.key,
    e: Math.floor(claims.expiresAt.getTime() / 1000),
    f: claims.filename,
    t: claims.contentType,
  });
  return signToken(PURPOSE, payload, secret);
}

/** Checks the signature before the expiry: a tampered token is 'invalid' whatever expiry it claims. */
export function verifyDownloadLink(token: string, secret: string, now = new Date()): DownloadLinkVerification {
  const verified = verifyToken(PURPOSE, Payload, token, secret, now);
  if (!verified.ok) return verified;
  const { k: key, e, f: filename, t: contentType } = verified.payload;
  return { ok: true, key, expiresAt: new Date(e * 1000), filename, contentType };
}
