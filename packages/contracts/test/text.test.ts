import { describe, expect, it } from 'vitest';
import {
  CallbackQuery,
  CreateApiKeyBody,
  FreeText,
  OriginalFilename,
  SingleLineText,
  UpdateProfileBody,
  UploadFields,
} from '../src';

const CONTROLS = ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085'];

describe('SingleLineText', () => {
  it.each(['Summer shop', 'Zürich 2026', 'café · 東京 · 🌊', 'IMG_0001.JPG'])('accepts %j', (text) => {
    expect(SingleLineText.parse(text)).toBe(text);
  });

  it('trims the ends, line breaks included', () => {
    expect(SingleLineText.parse('  shop\n')).toBe('shop');
  });

  it.each([...CONTROLS, '\n', '\t', '\r', '\u2028'])('refuses %j inside', (control) => {
    expect(SingleLineText.safeParse(`a${control}b`).error?.issues).toEqual([
      expect.objectContaining({ message: 'must be one line without control characters' }),
    ]);
  });
});

describe('FreeText', () => {
  it('keeps tabs and line breaks', () => {
    const text = 'first line\n\tsecond line\r\nthird';
    expect(FreeText.parse(text)).toBe(text);
  });

  it.each(CONTROLS)('refuses %j', (control) => {
    expect(FreeText.safeParse(`a${control}b`).success).toBe(false);
  });
});

describe('names and identifiers in requests', () => {
  it.each([
    ['an API key name', CreateApiKeyBody, { name: 'ci\u0000' }],
    ['a display name', UpdateProfileBody, { displayName: 'Ada\u0000' }],
    ['a batch name', UploadFields, { name: 'Summer\u0000shop' }],
    ['a keyword', UploadFields, { keywords: 'red shoes, be\u0000ach' }],
    ['a locale', UploadFields, { locale: 'en\u0000' }],
    ['an identity provider error code', CallbackQuery, { error: 'access_denied\u0000' }],
    ['an identity provider error description', CallbackQuery, { error_description: 'no\u0000' }],
  ])('refuse a NUL in %s', (_what, schema, input) => {
    expect(schema.safeParse(input).success).toBe(false);
  });

  it('takes an uploaded file name of one line up to 255 characters', () => {
    expect(OriginalFilename.parse(' red shoes.jpg ')).toBe('red shoes.jpg');
    expect(OriginalFilename.safeParse('a\u0000.jpg').success).toBe(false);
    expect(OriginalFilename.safeParse('x'.repeat(256)).success).toBe(false);
  });
});
