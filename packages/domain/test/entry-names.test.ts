import { describe, expect, it } from 'vitest';
import { safeEntryName, uniqueEntryNames } from '../src';

describe('archive entry names', () => {
  it.each([
    ['lake-at-dawn.jpg', 'lake-at-dawn.jpg'],
    ['../../etc/passwd', '-..-etc-passwd'],
    ['..', 'image'],
    ['/absolute.jpg', '-absolute.jpg'],
    ['C:\\Windows\\evil.jpg', 'C--Windows-evil.jpg'],
    ['c:evil.jpg', 'c-evil.jpg'],
    ['a/b\\c.jpg', 'a-b-c.jpg'],
    ['tab\there\u202egpj.exe', 'tab-here-gpj.exe'],
    ['  .hidden.jpg. ', 'hidden.jpg'],
    ['łódź.jpg', 'łódź.jpg'],
  ])('makes %j one safe segment: %j', (name, safe) => {
    expect(safeEntryName(name)).toBe(safe);
  });

  it('numbers a repeated name, ignoring case, and leaves the reserved names free', () => {
    expect(
      uniqueEntryNames(['lake.jpg', 'Lake.jpg', 'lake.jpg', 'lake-2.jpg', 'manifest.csv', 'readme'], ['manifest.csv']),
    ).toEqual(['lake.jpg', 'Lake-2.jpg', 'lake-3.jpg', 'lake-2-2.jpg', 'manifest-2.csv', 'readme']);
  });
});
