import type { Redirect } from './redirects';

const DEFAULT_BUCKET_SIZE = 64;
const DEFAULT_MAX_SIZE = 2048;

/**
 * The http {} part: `map $uri $renamed_uri` of exact, percent-decoded paths (as nginx's `$uri` holds them) to the
 * percent-encoded new URL. nginx refuses a map whose longest key does not fit its hash bucket, and warns when
 * the hash cannot hold many keys in `map_hash_max_size` buckets, so either is raised when the paths need it.
 */
export function nginxMap(redirects: Redirect[], files: { map: string; serverRule: string }): string {
  const lines = [
    '# Renamer: old image URLs redirected to the renamed images (301).',
    '# Include this file in the http {} block of nginx.conf:',
    `#   include /etc/nginx/renamer/${files.map};`,
    `# and ${files.serverRule} in the server {} block that serves the images.`,
  ];
  const bucketSize = bucketSizeFor(redirects);
  const maxSize = powerOfTwoAtLeast(DEFAULT_MAX_SIZE, 4 * redirects.length);
  if (bucketSize > DEFAULT_BUCKET_SIZE || maxSize > DEFAULT_MAX_SIZE) {
    lines.push(
      '# Sized for these paths: remove a line below if nginx.conf already sets that directive at least as large.',
    );
  }
  if (bucketSize > DEFAULT_BUCKET_SIZE) lines.push(`map_hash_bucket_size ${bucketSize};`);
  if (maxSize > DEFAULT_MAX_SIZE) lines.push(`map_hash_max_size ${maxSize};`);
  lines.push('map $uri $renamed_uri {');
  for (const redirect of redirects) {
    lines.push(`    ${nginxString(redirect.fromDecodedPath)} ${nginxString(redirect.toUrl)};`);
  }
  lines.push('}', '');
  return lines.join('\n');
}

/**
 * The server {} part: redirects a request for an old path before any location is chosen, its query kept (as
 * Apache's Redirect keeps it).
 */
export function nginxServerRule(files: { map: string; serverRule: string }): string {
  return [
    '# Renamer: include this file in the server {} block that serves the images:',
    `#   include /etc/nginx/renamer/${files.serverRule};`,
    `# with ${files.map} included in the http {} block (it defines $renamed_uri).`,
    'if ($renamed_uri) {',
    '    return 301 $renamed_uri$is_args$args;',
    '}',
    '',
  ].join('\n');
}

/**
 * A double-quoted nginx string. Backslash and quote are escaped; `$` cannot be (nginx has no escape for it), which
 * is safe here: map keys are literal, and the values are percent-encoded URLs, which never hold a `$`.
 */
function nginxString(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** nginx needs pointer + key length + 2, aligned to 8, plus a terminating pointer per bucket (ngx_hash_init). */
function bucketSizeFor(redirects: Redirect[]): number {
  const longest = Math.max(0, ...redirects.map((redirect) => Buffer.byteLength(redirect.fromDecodedPath)));
  return powerOfTwoAtLeast(DEFAULT_BUCKET_SIZE, 8 + Math.ceil((longest + 2) / 8) * 8 + 8);
}

function powerOfTwoAtLeast(start: number, needed: number): number {
  let size = start;
  while (size < needed) size *= 2;
  return size;
}
