import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, InvalidCursorError, pageSize, toPage } from '../src/pagination';

describe('pagination', () => {
  it('round-trips a cursor', () => {
    const position = { createdAt: new Date('2031-01-01T00:00:00.123Z'), id: randomUUID() };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each(['', '!!!', Buffer.from('{}').toString('base64url'), Buffer.from('["nope","x"]').toString('base64url')])(
    'refuses the malformed cursor %j',
    (cursor) => {
      expect(() => decodeCursor(cursor)).toThrow(InvalidCursorError);
    },
  );

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
