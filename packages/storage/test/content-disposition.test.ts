import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../src/index';

describe('contentDisposition', () => {
  it('quotes a plain ASCII filename', () => {
    expect(contentDisposition('Lake at dawn.jpg')).toBe('attachment; filename="Lake at dawn.jpg"');
  });

  it('adds an RFC 8187 filename* when the name needs more than printable ASCII', () => {
    expect(contentDisposition('Été.jpg')).toBe(`attachment; filename="_t_.jpg"; filename*=UTF-8''%C3%89t%C3%A9.jpg`);
  });

  it('never lets quotes, backslashes or line breaks into the quoted name', () => {
    expect(contentDisposition('a"b\\c\r\nd(1)\'*.jpg')).toBe(
      `attachment; filename="a_b_c__d(1)'*.jpg"; filename*=UTF-8''a%22b%5Cc%0D%0Ad%281%29%27%2A.jpg`,
    );
  });
});
