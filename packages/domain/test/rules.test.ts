import { PLAN_QUOTAS } from '@renamer/contracts';
import { describe, expect, it } from 'vitest';
import { emailHash, quotaPeriod, quotaRemaining, safeReturnTo } from '../src';

describe('safeReturnTo', () => {
  it.each(['/', '/batches', '/batches/1?tab=images#top'])('keeps the same-site path %s', (path) => {
    expect(safeReturnTo(path)).toBe(path);
  });

  it.each([
    'https://evil.example/',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'batches',
    '/%0d%0aSet-Cookie:x',
    '/a\nb',
    '',
    undefined,
    ['/x'],
  ])('refuses %j and falls back to /', (candidate) => {
    const result = safeReturnTo(candidate);
    expect(result.startsWith('/') && !result.startsWith('//')).toBe(true);
    expect(new URL(result, 'https://renamer.test').host).toBe('renamer.test');
    if (typeof candidate !== 'string' || !candidate.startsWith('/%')) expect(result).toBe('/');
  });
});

describe('quota period', () => {
  it('is the calendar month in UTC', () => {
    expect(quotaPeriod(new Date('2026-11-30T23:59:59.999Z'))).toEqual({
      periodStart: new Date('2026-11-01T00:00:00Z'),
      periodEnd: new Date('2026-12-01T00:00:00Z'),
    });
    expect(quotaPeriod(new Date('2026-12-31T12:00:00Z')).periodEnd).toEqual(new Date('2027-01-01T00:00:00Z'));
  });

  it('never reports a negative remainder after an admin lowers a quota', () => {
    expect(quotaRemaining(50, 48)).toBe(2);
    expect(quotaRemaining(10, 48)).toBe(0);
  });

  it('gives each plan its monthly images', () => {
    expect(PLAN_QUOTAS).toEqual({ basic: 50, pro: 500, max: 1000 });
  });
});

describe('emailHash', () => {
  it('hashes the trimmed, lower-cased email as lowercase hex', () => {
    expect(emailHash('  Ada@Example.COM ')).toBe(emailHash('ada@example.com'));
    // sha256sum of the bytes 'ada@example.com'
    expect(emailHash('ada@example.com')).toBe('b5fc85e55755f9e0d030a10ab4429b6b2944855f9a0d60077fe832becbc41d72');
  });
});
