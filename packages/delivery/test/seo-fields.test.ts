import { describe, expect, it } from 'vitest';
import { seoFieldsFor } from '../src';

describe('seoFieldsFor', () => {
  it("makes the title from the filename's words and takes the alt text as the description", () => {
    expect(seoFieldsFor({ filename: 'red-ceramic-cups.jpg', altText: 'Red cups on a shelf', tags: ['cups'] })).toEqual({
      title: 'Red ceramic cups',
      description: 'Red cups on a shelf',
      altText: 'Red cups on a shelf',
      keywords: ['cups'],
    });
  });

  it('capitalises a non-ASCII first letter and splits on underscores and dots', () => {
    expect(seoFieldsFor({ filename: 'łódź_old.town.webp', altText: null, tags: [] }).title).toBe('Łódź old town');
  });

  it('keeps the first spelling of tags equal but for case, and drops empty ones', () => {
    expect(seoFieldsFor({ filename: 'a.png', altText: '  ', tags: ['Harbour', ' harbour ', '', 'boats'] })).toEqual({
      title: 'A',
      description: null,
      altText: null,
      keywords: ['Harbour', 'boats'],
    });
  });
});
