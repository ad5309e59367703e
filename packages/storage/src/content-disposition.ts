/**
 * `attachment; filename="…"` with an ASCII fallback; names that need more than printable ASCII also get an
 * RFC 8187 `filename*` that browsers prefer.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const header = `attachment; filename="${fallback}"`;
  return fallback === filename ? header : `${header}; filename*=UTF-8''${encodeRfc8187(filename)}`;
}

function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
