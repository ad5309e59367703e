import type { Redirect } from './redirects';

/**
 * mod_alias `Redirect 301 "<old path>" "<new URL>"`: Apache compares the old path percent-decoded, as it is
 * written here. Inside double quotes Apache reads `\"` and `\\` as a quote and a backslash.
 */
export function htaccess(redirects: Redirect[]): string {
  const lines = [
    '# Renamer: old image URLs redirected to the renamed images (301, mod_alias).',
    "# Paste these lines into the site's root .htaccess, or the images directory's (the paths are from the site's",
    '# root either way), or into the <VirtualHost>. See the README of the kit.',
    ...redirects.map(
      (redirect) => `Redirect 301 ${apacheString(redirect.fromDecodedPath)} ${apacheString(redirect.toUrl)}`,
    ),
    '',
  ];
  return lines.join('\n');
}

function apacheString(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
