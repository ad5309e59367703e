import { SESSION_COOKIE } from './credentials';

/** How callers prove who they are, as OpenAPI security schemes: the session cookie or an API key. */
export const SECURITY_SCHEMES = {
  session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
  apiKey: { type: 'http', scheme: 'bearer' },
} as const;

/** The OpenAPI security of every route behind `requireCredentials`. */
export const SIGNED_IN_SECURITY: Record<string, string[]>[] = [{ session: [] }, { apiKey: [] }];
