import { parseBaseUrl } from './base-url';
import { toCsv } from './csv';
import { htaccess } from './htaccess';
import { imageSitemap } from './image-sitemap';
import { nginxMap, nginxServerRule } from './nginx';
import { encodePathSegment, redirectsFor } from './redirects';

export interface KitEntry {
  originalFilename: string;
  filename: string;
  title: string;
  altText: string | null;
  keywords: string[];
  checksum: string;
  size: number;
}

export const KIT_DIR = 'renamer';
/** Keywords share one cell of the manifest, joined by this. */
export const KEYWORD_SEPARATOR = '; ';

const NGINX_FILES = { map: 'redirects.nginx.conf', serverRule: 'redirects.nginx-server.conf' };

/**
 * The files of the rename kit, named under `renamer/`: the manifest always; with a `baseUrl` (a path or an http(s)
 * URL, else InvalidBaseUrlError) the redirect maps, and with an absolute one the image sitemap.
 */
export function buildRenameKit(
  entries: KitEntry[],
  options: { baseUrl?: string },
): Array<{ name: string; content: string }> {
  const base = options.baseUrl === undefined ? undefined : parseBaseUrl(options.baseUrl);
  const files = [{ name: `${KIT_DIR}/manifest.csv`, content: manifestCsv(entries) }];
  if (!base) return files;
  const redirects = redirectsFor(entries, base);
  files.push(
    { name: `${KIT_DIR}/${NGINX_FILES.map}`, content: nginxMap(redirects, NGINX_FILES) },
    { name: `${KIT_DIR}/${NGINX_FILES.serverRule}`, content: nginxServerRule(NGINX_FILES) },
    { name: `${KIT_DIR}/.htaccess`, content: htaccess(redirects) },
    {
      name: `${KIT_DIR}/redirects.csv`,
      content: toCsv(
        ['old_url', 'new_url'],
        redirects.map((redirect) => [redirect.fromUrl, redirect.toUrl]),
        { bom: false },
      ),
    },
  );
  if (base.origin) {
    const urls = entries.map((entry) => base.origin + base.path + encodePathSegment(entry.filename));
    files.push({ name: `${KIT_DIR}/image-sitemap.xml`, content: imageSitemap(urls) });
  }
  return files;
}

/** Spreadsheets read UTF-8 only after a byte order mark, so the manifest, meant for people, starts with one. */
function manifestCsv(entries: KitEntry[]): string {
  return toCsv(
    ['original_name', 'new_name', 'title', 'alt_text', 'keywords', 'checksum', 'size'],
    entries.map((entry) => [
      entry.originalFilename,
      entry.filename,
      entry.title,
      entry.altText ?? '',
      entry.keywords.join(KEYWORD_SEPARATOR),
      entry.checksum,
      entry.size,
    ]),
    { bom: true },
  );
}
