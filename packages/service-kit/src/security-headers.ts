import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * The headers helmet's defaults set, computed once. @fastify/helmet builds helmet's middleware again on every
 * request (the CSP directives parsed each time); with no per-request part (no CSP nonces) the answer is the
 * same every time, so each request only copies these.
 */
export function securityHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet()({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}
