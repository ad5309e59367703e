import type { z } from 'zod';

/** A problem document the API answered (RFC 9457), thrown so that pages can show its detail. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

let token: Promise<string> | undefined;
/** The session's CSRF token, fetched once per page life (a new sign-in reloads the page). */
export const csrfToken = () =>
  (token ??= fetch('/api/auth/csrf', { credentials: 'same-origin' })
    .then((response) => response.json() as Promise<{ token: string }>)
    .then((body) => body.token));

/**
 * Calls the API with the session cookie (and the CSRF token on changes), and checks the answer against the
 * contract's schema: the types come from `@renamer/contracts`, never retyped here.
 */
export async function api<S extends z.ZodType>(
  path: string,
  schema: S,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<z.infer<S>> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { ...init.headers };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = await csrfToken();
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  }).catch(() => {
    throw new ApiProblem(0, 'network', 'The request did not reach the server.');
  });
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as { code?: string; detail?: string };
    throw new ApiProblem(response.status, problem.code ?? 'internal', problem.detail ?? response.statusText);
  }
  return schema.parse(response.status === 204 ? null : await response.json());
}
