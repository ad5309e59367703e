import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * The headers helmet's defaults set, computed once. @fastify/helmet builds helmet's middleware again on every
 * request (the CSP directives parsed each time); with no per-request part (no CSP nonces) the answer is the
 * same every time, so each request only copies these.
 */
export interface SecurityHeaderOptions {
  /**
   * Served over https: browsers are told to fetch every subresource over https too. Over http (development,
   * a loopback test) that directive would send the web app's own scripts to an https port nobody listens on.
   */
  https: boolean;
}

/**
 * helmet's Content-Security-Policy, which fits the web app the API serves (its hashed scripts and styles from
 * its own origin, no inline script), plus what the app needs beyond it: images and workers from `blob:` URLs
 * (previews, the hashing worker) and nothing framing it.
 */
function contentSecurityPolicy({ https }: SecurityHeaderOptions) {
  return {
    directives: {
      ...helmet.contentSecurityPolicy.getDefaultDirectives(),
      'img-src': ["'self'", 'data:', 'blob:'],
      'worker-src': ["'self'", 'blob:'],
      'frame-ancestors': ["'none'"],
      'upgrade-insecure-requests': https ? [] : null,
    },
  };
}

export function securityHeaders(options: SecurityHeaderOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({ contentSecurityPolicy: contentSecurityPolicy(options) })(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    () => {},
  );
  return headers;
}
