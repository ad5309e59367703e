import { AppError } from '@renamer/contracts';

/** The `baseUrl` of a rename kit is neither a path nor an http(s) URL; answered 400 `validation_failed`. */
export class InvalidBaseUrlError extends AppError {
  constructor(reason: string) {
    super('validation_failed', `baseUrl ${reason}`, [{ path: 'baseUrl', message: reason }]);
    this.name = 'InvalidBaseUrlError';
  }
}

/**
 * Where the images live on the site: `origin` is '' for a path; `path` is percent-encoded and ends with '/';
 * `decodedPath` is the same path as servers match it (nginx's `$uri`, Apache's URL-path).
 * `/wp-content/uploads/2026/11` → { origin: '', path: '/wp-content/uploads/2026/11/', … }.
 */
export interface BaseUrl {
  origin: string;
  path: string;
  decodedPath: string;
}

const MAX_LENGTH = 2000;

export function parseBaseUrl(input: string): BaseUrl {
  const value = input.trim();
  if (!value) throw new InvalidBaseUrlError('is empty');
  if (value.length > MAX_LENGTH) throw new InvalidBaseUrlError(`is longer than ${MAX_LENGTH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value)) throw new InvalidBaseUrlError('holds a control character or backslash');
  if (/[?#]/.test(value)) throw new InvalidBaseUrlError('must not have a query or fragment');
  if (value.startsWith('/')) {
    if (value.startsWith('//')) throw new InvalidBaseUrlError('must be a path (/…) or an http(s) URL');
    return located('', new URL(value, 'http://placeholder.invalid').pathname);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidBaseUrlError('must be a path (/…) or an http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidBaseUrlError('must be a path (/…) or an http(s) URL');
  }
  if (url.username || url.password) throw new InvalidBaseUrlError('must not carry credentials');
  return located(url.origin, url.pathname);
}

function located(origin: string, pathname: string): BaseUrl {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(path);
  } catch {
    throw new InvalidBaseUrlError('holds a malformed percent-encoding');
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a decoded control character cannot go into a server config
  if (/[\u0000-\u001f\u007f]/.test(decodedPath)) throw new InvalidBaseUrlError('holds an encoded control character');
  return { origin, path, decodedPath };
}
