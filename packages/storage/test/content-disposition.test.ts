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

  it('encodes a non-ASCII name (an original name restored by revert) as UTF-8 in filename*', () => {
    const header = contentDisposition('łódź nad jeziorem.jpg');
    expect(header).toBe(
      `attachment; filename="__d_ nad jeziorem.jpg"; filename*=UTF-8''%C5%82%C3%B3d%C5%BA%20nad%20jeziorem.jpg`,
    );
    // What a browser does with filename*: its value decodes back to the name, byte for byte.
    const encoded = /filename\*=UTF-8''(.+)$/.exec(header)![1]!;
    expect(encoded).toMatch(/^[A-Za-z0-9!#$&+.^_`|~%-]+$/);
    expect(decodeURIComponent(encoded)).toBe('łódź nad jeziorem.jpg');
  });

  it('keeps a percent sign out of the quoted name, which some browsers would decode', () => {
    expect(contentDisposition('100%25.jpg')).toBe(`attachment; filename="100_25.jpg"; filename*=UTF-8''100%2525.jpg`);
  });
});
