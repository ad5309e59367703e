import { describe, expect, it } from 'vitest';
import { InvalidObjectKeyError, imageObjectKey, previewObjectKey, userObjectPrefix } from '../src/index';

describe('the key layout', () => {
  it("keeps a user's images under the user's prefix", () => {
    expect(userObjectPrefix('u1')).toBe('users/u1');
    expect(imageObjectKey('u1', 'i1')).toBe('users/u1/images/i1');
    expect(imageObjectKey('u1', 'i1').startsWith(`${userObjectPrefix('u1')}/`)).toBe(true);
    expect(previewObjectKey('u1', 'i1')).toBe('users/u1/previews/i1.webp');
    expect(previewObjectKey('u1', 'i1', 'small')).toBe('users/u1/previews/i1.webp');
    expect(previewObjectKey('u1', 'i1', 'large')).toBe('users/u1/previews/i1-large.webp');
  });

  it('refuses ids that would climb or add levels', () => {
    expect(() => userObjectPrefix('../admin')).toThrow(InvalidObjectKeyError);
    expect(() => imageObjectKey('u1', 'a/b')).toThrow(InvalidObjectKeyError);
    expect(() => previewObjectKey('u1', 'a/b')).toThrow(InvalidObjectKeyError);
    expect(() => previewObjectKey('u1', 'a/b', 'large')).toThrow(InvalidObjectKeyError);
  });
});
