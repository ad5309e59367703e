import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidObjectKeyError, signDownloadLink, signToken, verifyDownloadLink, verifyToken } from '../src/index';

const SECRET = 'test-secret-that-is-at-least-32-characters';
const NOW = new Date('2030-01-01T00:00:00Z');
const IN_A_MINUTE = new Date(NOW.getTime() + 60_000);

function parts(token: string) {
  const [payload, signature] = token.split('.') as [string, string];
  return { payload, signature, claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) };
}
const encode = (claims: object) => Buffer.from(JSON.stringify(claims)).toString('base64url');

describe('download links', () => {
  const token = signDownloadLink(
    { key: 'users/u1/images/i1', expiresAt: IN_A_MINUTE, filename: 'Lake.jpg', contentType: 'image/jpeg' },
    SECRET,
  );

  it('verifies a link it signed, returning its claims', () => {
    expect(verifyDownloadLink(token, SECRET, NOW)).toEqual({
      ok: true,
      key: 'users/u1/images/i1',
      expiresAt: IN_A_MINUTE,
      filename: 'Lake.jpg',
      contentType: 'image/jpeg',
    });
  });

  it('uses only URL-safe characters', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('reports an expired link as expired, from the expiry instant on', () => {
    expect(verifyDownloadLink(token, SECRET, new Date(IN_A_MINUTE.getTime() - 1)).ok).toBe(true);
    expect(verifyDownloadLink(token, SECRET, IN_A_MINUTE)).toEqual({ ok: false, reason: 'expired' });
  });

  it('reports a changed key, filename or expiry as invalid, even when also expired', () => {
    const { signature, claims } = parts(token);
    const invalid = { ok: false, reason: 'invalid' };
    expect(verifyDownloadLink(`${encode({ ...claims, k: 'users/u2/images/i1' })}.${signature}`, SECRET, NOW)).toEqual(
      invalid,
    );
    expect(verifyDownloadLink(`${encode({ ...claims, f: 'other.jpg' })}.${signature}`, SECRET, NOW)).toEqual(invalid);
    expect(verifyDownloadLink(`${encode({ ...claims, e: claims.e + 3600 })}.${signature}`, SECRET, NOW)).toEqual(
      invalid,
    );
    const later = new Date(IN_A_MINUTE.getTime() + 1000);
    expect(verifyDownloadLink(`${encode({ ...claims, e: claims.e - 30 })}.${signature}`, SECRET, later)).toEqual(
      invalid,
    );
  });

  it('reports a changed signature or another secret as invalid', () => {
    const { payload, signature } = parts(token);
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(verifyDownloadLink(`${payload}.${flipped}`, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyDownloadLink(token, `${SECRET}!`, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it.each([
    '',
    '.',
    'abc',
    'a.b.c',
    `${parts(token).payload}.`,
    `.${parts(token).signature}`,
    `${parts(token).payload}.${parts(token).signature}=`,
    `${parts(token).payload}+.${parts(token).signature}`,
    token.replace('.', '..'),
  ])('reports malformed token %j as invalid', (malformed) => {
    expect(verifyDownloadLink(malformed, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses to sign an invalid key or a header-breaking filename', () => {
    expect(() => signDownloadLink({ key: '../etc/passwd', expiresAt: IN_A_MINUTE }, SECRET)).toThrow(
      InvalidObjectKeyError,
    );
    expect(() =>
      signDownloadLink({ key: 'a', expiresAt: IN_A_MINUTE, filename: 'a\r\nSet-Cookie: x' }, SECRET),
    ).toThrow();
  });

  it('signs without the optional claims', () => {
    const bare = signDownloadLink({ key: 'a/b', expiresAt: IN_A_MINUTE }, SECRET);
    expect(verifyDownloadLink(bare, SECRET, NOW)).toEqual({
      ok: true,
      key: 'a/b',
      expiresAt: IN_A_MINUTE,
      filename: undefined,
      contentType: undefined,
    });
  });

  it('never accepts a token signed for another purpose, nor its own for another', () => {
    const { claims } = parts(token);
    const other = signToken('renamer/some-other-link/v1', claims, SECRET);
    expect(verifyDownloadLink(other, SECRET, NOW)).toEqual({ ok: false, reason: 'invalid' });
    const Anything = z.object({ e: z.number() }).passthrough();
    expect(verifyToken('renamer/some-other-link/v1', Anything, token, SECRET, NOW)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });
});
