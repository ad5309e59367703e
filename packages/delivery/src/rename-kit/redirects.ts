import type { BaseUrl } from './base-url';

/** One old image URL and the new one it answers with. */
export interface Redirect {
  /** Percent-encoded; absolute when the base URL is. */
  fromUrl: string;
  toUrl: string;
  /** The old path as a server matches it: percent-decoded (nginx's `$uri`, Apache's URL-path). */
  fromDecodedPath: string;
}

/**
 * The redirects for renamed images. An image whose name did not change gets none (it would loop); of several
 * images uploaded under the same name only the first gets one (a server maps one old URL to one new one); and an
 * old name that is now another image's new name gets none, or the new image could not be reached. Names holding
 * control characters are left out: no server config can carry them and no browser asks for them.
 */
export function redirectsFor(entries: { originalFilename: string; filename: string }[], base: BaseUrl): Redirect[] {
  const newNames = new Set(entries.map((entry) => entry.filename));
  const seen = new Set<string>();
  const redirects: Redirect[] = [];
  for (const { originalFilename, filename } of entries) {
    if (originalFilename === filename || newNames.has(originalFilename) || seen.has(originalFilename)) continue;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: names with control characters are left out
    if (/[\u0000-\u001f\u007f]/.test(originalFilename + filename)) continue;
    seen.add(originalFilename);
    redirects.push({
      fromUrl: base.origin + base.path + encodePathSegment(originalFilename),
      toUrl: base.origin + base.path + encodePathSegment(filename),
      fromDecodedPath: base.decodedPath + originalFilename,
    });
  }
  return redirects;
}

/** Every byte of the UTF-8 name percent-encoded but RFC 3986's unreserved characters. */
export function encodePathSegment(name: string): string {
  let encoded = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}
