/**
 * A minimal cookie jar for following sign-in redirects in tests: cookies are kept per host (host name and port)
 * by name; paths, domains and the Secure flag are ignored, expiry only as far as deleting cookies goes.
 */
export class CookieJar {
  readonly #cookiesByHost = new Map<string, Map<string, string>>();

  /** Stores the Set-Cookie headers of a response received from `url`. */
  storeFrom(url: URL, response: Response): void {
    for (const setCookie of response.headers.getSetCookie()) {
      this.#store(url.host, setCookie);
    }
  }

  /** The Cookie header to send to `url`, if there is any cookie for its host. */
  headerFor(url: URL): string | undefined {
    const cookies = this.#cookiesByHost.get(url.host);
    if (!cookies?.size) return undefined;
    return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(url: string | URL, name: string): string | undefined {
    return this.#cookiesByHost.get(new URL(url).host)?.get(name);
  }

  #store(host: string, setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';');
    const separator = pair.indexOf('=');
    if (separator <= 0) return;
    const name = pair.slice(0, separator).trim();
    const value = pair.slice(separator + 1).trim();
    let cookies = this.#cookiesByHost.get(host);
    if (!cookies) {
      cookies = new Map();
      this.#cookiesByHost.set(host, cookies);
    }
    if (isExpired(attributes)) {
      cookies.delete(name);
    } else {
      cookies.set(name, value);
    }
  }
}

function isExpired(attributes: string[]): boolean {
  for (const attribute of attributes) {
    const [key = '', value = ''] = attribute.split('=', 2).map((part) => part.trim());
    if (key.toLowerCase() === 'max-age' && Number(value) <= 0) return true;
    if (key.toLowerCase() === 'expires' && Date.parse(value) <= Date.now()) return true;
  }
  return false;
}
