import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, InvalidCursorError, pageSize, toPage } from '../src/pagination';

describe('pagination', () => {
  it('round-trips a cursor', () => {
    const position = { createdAt: new Date('2031-01-01T00:00:00.123Z'), id: randomUUID() };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each([
    '',
    '!!!',
    'eyJ9',
    '%E0%A4%A',
    Buffer.from('{}').toString('base64url'),
    Buffer.from('["nope","x"]').toString('base64url'),
  ])('refuses the malformed cursor %j', (cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(InvalidCursorError);
  });

  it.each([
    ['2031-01-01T00:00:00Z', 'another date format'],
    ['2031-02-30T00:00:00.000Z', 'a day that does not exist'],
    ['0000-01-01T00:00:00.000Z', 'year 0, which PostgreSQL refuses'],
    ['-271821-04-20T00:00:00.000Z', 'a year PostgreSQL cannot hold'],
    [1_000, 'a number'],
  ])('refuses a cursor whose date is %j (%s)', (createdAt: string | number, _why: string) => {
    const cursor = Buffer.from(JSON.stringify([createdAt, randomUUID()])).toString('base64url');
    expect(() => decodeCursor(cursor)).toThrow(InvalidCursorError);
  });

  it('refuses as the contract error invalid_cursor (400)', () => {
    expect(() => decodeCursor('garbage')).toThrow(
      expect.objectContaining({ code: 'invalid_cursor', status: 400 }) as unknown as Error,
    );
  });

  it('clamps the page size to 1..100 with a default of 50', () => {
    expect(pageSize(undefined)).toBe(50);
    expect(pageSize(0)).toBe(1);
    expect(pageSize(1_000)).toBe(100);
    expect(pageSize(Number.NaN)).toBe(50);
  });

  it('gives a next cursor only when an extra row was fetched', () => {
    const rows = [1, 2, 3].map((n) => ({ createdAt: new Date(n), id: randomUUID() }));
    expect(toPage(rows, 3).nextCursor).toBeNull();
    const page = toPage(rows, 2);
    expect(page.items).toEqual(rows.slice(0, 2));
    expect(decodeCursor(page.nextCursor!)).toEqual(rows[1]);
  });
});
