import { describe, expect, it } from 'vitest';
import { InvalidObjectKeyError, isValidObjectKey, MAX_KEY_LENGTH, objectKey, objectKeyProblem } from '../src/index';

describe('object keys', () => {
  it.each([
    'a',
    'users/42/images/7f3c',
    'a.b_c-d/E.F',
    '.hidden/..dots/...',
    `${'a/'.repeat((MAX_KEY_LENGTH - 1) / 2)}a`,
  ])('accepts %j', (key) => {
    expect(objectKeyProblem(key)).toBeUndefined();
  });

  it.each([
    ['', 'empty'],
    ['../x', 'parent segment'],
    ['a/../../b', 'parent segment inside'],
    ['./a', 'dot segment'],
    ['/abs', 'leading slash'],
    ['a/', 'trailing slash'],
    ['a//b', 'empty segment'],
    ['a\\b', 'backslash'],
    ['..\\x', 'windows traversal'],
    ['%2e%2e/x', 'percent-encoded dots'],
    ['a%2Fb', 'percent-encoded slash'],
    ['a\0b', 'NUL'],
    ['a b', 'space'],
    ['a\nb', 'newline'],
    ['café', 'non-ASCII'],
    ['ａ', 'full-width letter'],
    ['a:b', 'colon'],
    ['C:/x', 'drive letter'],
    ['~/x', 'tilde'],
    ['x'.repeat(MAX_KEY_LENGTH + 1), 'too long'],
    ['x'.repeat(201), 'segment too long'],
  ])('rejects %j (%s)', (key) => {
    expect(objectKeyProblem(key)).toEqual(expect.any(String));
    expect(isValidObjectKey(key)).toBe(false);
  });

  it('rejects values that are not strings', () => {
    expect(isValidObjectKey(undefined)).toBe(false);
    expect(isValidObjectKey(42)).toBe(false);
  });

  it('builds keys from segments', () => {
    expect(objectKey('users', 'u1', 'images', 'i1.jpg')).toBe('users/u1/images/i1.jpg');
  });

  it('refuses a segment that would add or climb levels', () => {
    expect(() => objectKey('users', '../admin')).toThrow(InvalidObjectKeyError);
    expect(() => objectKey('users', 'a/b')).toThrow(InvalidObjectKeyError);
    expect(() => objectKey('users', '')).toThrow(InvalidObjectKeyError);
    expect(() => objectKey()).toThrow(InvalidObjectKeyError);
  });

  it('names the key and the rule in the error', () => {
    expect(() => objectKey('a', '..')).toThrow('Invalid object key ".."');
  });
});
