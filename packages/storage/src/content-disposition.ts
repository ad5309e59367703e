/**
 * `attachment; filename="…"` (RFC 6266) with an ASCII fallback; a name that needs more than printable ASCII,
 * or holds a character the quoted form cannot carry safely (`"`, `\`, or `%`, which some browsers decode),
 * also gets an RFC 5987/8187 `filename*=UTF-8''…` that browsers prefer.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const header = `attachment; filename="${fallback}"`;
  return fallback === filename ? header : `${header}; filename*=UTF-8''${encodeRfc8187(filename)}`;
}

/** Percent-encodes everything but RFC 5987's attr-char (encodeURIComponent also leaves `'()*` alone). */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
