const FALLBACK = '/';

/**
 * Where to send someone after sign-in: only a same-site relative path. Anything that a browser could
 * read as another host (`//evil`, `/\evil`, `https://…`, control characters) falls back to `/`.
 */
export function safeReturnTo(candidate: unknown): string {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 2048) return FALLBACK;
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return FALLBACK;
  if (/[\p{Cc}\\]/u.test(candidate)) return FALLBACK;
  const resolved = new URL(candidate, 'http://placeholder.invalid');
  if (resolved.origin !== 'http://placeholder.invalid') return FALLBACK;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
