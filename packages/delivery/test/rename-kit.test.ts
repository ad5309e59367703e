import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDir } from '@renamer/runtime/testing';
import { parse } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { buildRenameKit, InvalidBaseUrlError, KEYWORD_SEPARATOR, type KitEntry, parseBaseUrl } from '../src';

const NGINX = '/usr/sbin/nginx';
const NO_NGINX = `nginx is not installed at ${NGINX} (Debian's package nginx): the nginx map is not checked`;
const APACHE = '/usr/sbin/apache2';
const APACHE_MODULES = '/usr/lib/apache2/modules';
const NO_APACHE = `Apache is not installed at ${APACHE} (Debian's package apache2-bin): the .htaccess is not checked`;
const checksum = (n: number) => n.toString(16).padStart(64, '0');
const longOriginal = `${'very-long-camera-export-name-'.repeat(7)}final.jpg`;

const entries: KitEntry[] = [
  {
    originalFilename: 'IMG 0001 łódź, "best".jpg',
    filename: 'red-ceramic-cups.jpg',
    title: 'Red ceramic cups',
    altText: 'Three cups, "red"\nand one more on the shelf in Łódź',
    keywords: ['cups', 'łódź', 'glazed, handmade'],
    checksum: checksum(1),
    size: 123_456,
  },
  {
    originalFilename: 'DSC_0002.JPG',
    filename: 'harbour-at-dusk.jpg',
    title: 'Harbour at dusk',
    altText: null,
    keywords: [],
    checksum: checksum(2),
    size: 98_765,
  },
  {
    originalFilename: 'already-good.png',
    filename: 'already-good.png',
    title: 'Already good',
    altText: 'A name nobody changed',
    keywords: ['kept'],
    checksum: checksum(3),
    size: 4_321,
  },
  {
    originalFilename: longOriginal,
    filename: 'boats-in-the-bay.webp',
    title: 'Boats in the bay',
    altText: 'Boats',
    keywords: ['boats'],
    checksum: checksum(4),
    size: 1,
  },
];
/** The entries whose name changed: each gets a redirect. */
const renamed = entries.filter((entry) => entry.originalFilename !== entry.filename);

function file(files: { name: string; content: string }[], name: string): string {
  const found = files.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${name} is not in the kit: ${files.map((candidate) => candidate.name).join(', ')}`);
  return found.content;
}

describe('the manifest', () => {
  it('reads back, through a CSV parser, as the entries: commas, quotes, line breaks and non-ASCII intact', () => {
    const csv = file(buildRenameKit(entries, {}), 'renamer/manifest.csv');
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toEqual(
      entries.map((entry) => ({
        original_name: entry.originalFilename,
        new_name: entry.filename,
        title: entry.title,
        alt_text: entry.altText ?? '',
        keywords: entry.keywords.join(KEYWORD_SEPARATOR),
        checksum: entry.checksum,
        size: String(entry.size),
      })),
    );
    expect(csv.startsWith('\uFEFForiginal_name,new_name,title,alt_text,keywords,checksum,size\r\n')).toBe(true);
  });

  it('is the only file without a baseUrl', () => {
    expect(buildRenameKit(entries, {}).map((kitFile) => kitFile.name)).toEqual(['renamer/manifest.csv']);
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    const formula = { ...entries[1]!, altText: '=HYPERLINK("http://evil.example")' };
    const [row] = parse(file(buildRenameKit([formula], {}), 'renamer/manifest.csv'), { bom: true, columns: true });
    expect((row as Record<string, string>).alt_text).toBe(`'=HYPERLINK("http://evil.example")`);
  });
});

describe('with a path as baseUrl', () => {
  const kit = buildRenameKit(entries, { baseUrl: '/wp-content/uploads/2026/11' });

  it('holds the redirect maps and no sitemap (a sitemap needs absolute URLs)', () => {
    expect(kit.map((kitFile) => kitFile.name)).toEqual([
      'renamer/manifest.csv',
      'renamer/redirects.nginx.conf',
      'renamer/redirects.nginx-server.conf',
      'renamer/.htaccess',
      'renamer/redirects.csv',
    ]);
  });

  it('lists every renamed image in redirects.csv with percent-encoded URLs', () => {
    const rows = parse(file(kit, 'renamer/redirects.csv'), { columns: true });
    expect(rows).toEqual([
      {
        old_url: '/wp-content/uploads/2026/11/IMG%200001%20%C5%82%C3%B3d%C5%BA%2C%20%22best%22.jpg',
        new_url: '/wp-content/uploads/2026/11/red-ceramic-cups.jpg',
      },
      {
        old_url: '/wp-content/uploads/2026/11/DSC_0002.JPG',
        new_url: '/wp-content/uploads/2026/11/harbour-at-dusk.jpg',
      },
      {
        old_url: `/wp-content/uploads/2026/11/${longOriginal}`,
        new_url: '/wp-content/uploads/2026/11/boats-in-the-bay.webp',
      },
    ]);
  });

  it('gives Apache one Redirect 301 per renamed image, the old path decoded and quoted', () => {
    const redirects = file(kit, 'renamer/.htaccess')
      .split('\n')
      .filter((line) => line.startsWith('Redirect '));
    expect(redirects).toEqual([
      'Redirect 301 "/wp-content/uploads/2026/11/IMG 0001 łódź, \\"best\\".jpg" "/wp-content/uploads/2026/11/red-ceramic-cups.jpg"',
      'Redirect 301 "/wp-content/uploads/2026/11/DSC_0002.JPG" "/wp-content/uploads/2026/11/harbour-at-dusk.jpg"',
      `Redirect 301 "/wp-content/uploads/2026/11/${longOriginal}" "/wp-content/uploads/2026/11/boats-in-the-bay.webp"`,
    ]);
  });

  /**
   * Every old URL of the kit answers 301 with its new URL through the server at `base` (a query string kept), and a
   * file that kept its name is not redirected; `serverLog` says why when a redirect is missing.
   */
  async function expectRedirectsThrough(base: string, serverLog: () => Promise<string> = async () => '') {
    for (const row of parse(file(kit, 'renamer/redirects.csv'), { columns: true }) as Record<string, string>[]) {
      const response = await fetch(base + row.old_url, { redirect: 'manual' });
      expect(response.status, `${row.old_url}\n${await serverLog()}`).toBe(301);
      expect(response.headers.get('location')).toBe(base + row.new_url);
    }
    const withQuery = await fetch(`${base}/wp-content/uploads/2026/11/DSC_0002.JPG?ver=2`, { redirect: 'manual' });
    expect(withQuery.headers.get('location')).toBe(`${base}/wp-content/uploads/2026/11/harbour-at-dusk.jpg?ver=2`);
    const unchanged = await fetch(`${base}/wp-content/uploads/2026/11/already-good.png`, { redirect: 'manual' });
    expect(unchanged.status).toBe(404);
  }

  it('gives nginx a map that nginx -t accepts and that redirects every old URL', async ({ skip }) => {
    skip(!existsSync(NGINX), NO_NGINX);
    const port = await freePort();
    const dir = await nginxTest(kit, port);
    const nginx = spawn(NGINX, ['-c', join(dir, 'nginx.conf'), '-p', dir, '-e', 'stderr'], { stdio: 'ignore' });
    try {
      const base = `http://127.0.0.1:${port}`;
      await expect
        .poll(() =>
          fetch(`${base}/`).then(
            (response) => response.status,
            () => 0,
          ),
        )
        .toBe(404);
      await expectRedirectsThrough(base);
    } finally {
      nginx.kill();
      await once(nginx, 'exit');
    }
  });

  // The kit's README offers both places: the site's root .htaccess, or the images directory's.
  it.for([
    ['the site root', ''],
    ['the images directory', 'wp-content/uploads/2026/11'],
  ])(
    'gives Apache an .htaccess (in %s) that apache2 reads and that redirects every old URL',
    async ([, htaccessDir], { skip }) => {
      skip(!existsSync(APACHE), NO_APACHE);
      const port = await freePort();
      const apache = await apacheTest(kit, port, htaccessDir!);
      try {
        const base = `http://127.0.0.1:${port}`;
        // Up once it answers at all; what it answers is checked below, with its error log to say why.
        await expect
          .poll(() =>
            fetch(`${base}/`).then(
              () => true,
              () => false,
            ),
          )
          .toBe(true);
        await expectRedirectsThrough(base, apache.errorLog);
      } finally {
        await apache.stop();
      }
    },
  );

  it('sizes the map so that nginx builds it for thousands of images without a warning', async ({ skip }) => {
    skip(!existsSync(NGINX), NO_NGINX);
    const many = Array.from({ length: 3000 }, (_, i) => ({
      ...entries[1]!,
      originalFilename: `IMG_${String(i).padStart(5, '0')}.JPG`,
      filename: `product-photo-${i}.jpg`,
    }));
    await nginxTest(buildRenameKit(many, { baseUrl: '/wp-content/uploads/2026/11/' }), await freePort());
  });
});

describe('with an absolute baseUrl', () => {
  const kit = buildRenameKit(entries, { baseUrl: 'https://shop.example/media/' });

  it('lists every image in an image sitemap that an XML parser reads, with absolute URLs', () => {
    const xml = file(kit, 'renamer/image-sitemap.xml');
    expect(XMLValidator.validate(xml)).toBe(true);
    const { urlset } = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'url' }).parse(xml);
    expect(urlset['@_xmlns:image']).toBe('http://www.google.com/schemas/sitemap-image/1.1');
    const imageUrls = urlset.url.map((url: Record<string, Record<string, string>>) => url['image:image']!['image:loc']);
    expect(imageUrls).toEqual([
      'https://shop.example/media/red-ceramic-cups.jpg',
      'https://shop.example/media/harbour-at-dusk.jpg',
      'https://shop.example/media/already-good.png',
      'https://shop.example/media/boats-in-the-bay.webp',
    ]);
  });

  it('redirects to absolute URLs', () => {
    const rows = parse(file(kit, 'renamer/redirects.csv'), { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.new_url)).toEqual(
      renamed.map((entry) => `https://shop.example/media/${encodeURIComponent(entry.filename)}`),
    );
    expect(file(kit, 'renamer/redirects.nginx.conf')).toContain(
      '"/media/DSC_0002.JPG" "https://shop.example/media/harbour-at-dusk.jpg";',
    );
  });

  it('escapes what XML needs escaped', () => {
    const xml = file(
      buildRenameKit([{ ...entries[1]!, filename: "a&b'<c>.jpg" }], { baseUrl: 'https://x.example/' }),
      'renamer/image-sitemap.xml',
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<image:loc>https://x.example/a%26b%27%3Cc%3E.jpg</image:loc>');
  });
});

describe('which images get a redirect', () => {
  const entry = (originalFilename: string, filename: string): KitEntry => ({
    ...entries[1]!,
    originalFilename,
    filename,
  });

  it('none for an old name that is now another image’s new name, and one for the first of two same old names', () => {
    const kit = buildRenameKit(
      [entry('b.jpg', 'c.jpg'), entry('a.jpg', 'b.jpg'), entry('dup.jpg', 'first.jpg'), entry('dup.jpg', 'second.jpg')],
      { baseUrl: '/' },
    );
    expect(parse(file(kit, 'renamer/redirects.csv'), { columns: true })).toEqual([
      { old_url: '/a.jpg', new_url: '/b.jpg' },
      { old_url: '/dup.jpg', new_url: '/first.jpg' },
    ]);
  });
});

describe('baseUrl', () => {
  it('takes a path or an http(s) URL, percent-encoded, with a trailing slash', () => {
    expect(parseBaseUrl('/wp-content/uploads/2026/11')).toEqual({
      origin: '',
      path: '/wp-content/uploads/2026/11/',
      decodedPath: '/wp-content/uploads/2026/11/',
    });
    expect(parseBaseUrl(' https://Shop.example:8443/médias/ ')).toEqual({
      origin: 'https://shop.example:8443',
      path: '/m%C3%A9dias/',
      decodedPath: '/médias/',
    });
    expect(parseBaseUrl('http://shop.example')).toMatchObject({ origin: 'http://shop.example', path: '/' });
  });

  it.each([
    '',
    'uploads/2026/',
    '//evil.example/uploads/',
    'ftp://shop.example/',
    'javascript:alert(1)',
    '/uploads/?page=2',
    'https://user:secret@shop.example/',
    '/uploads/%0A/',
    '/uploads\n/',
    '/uploads/%E2%82/',
  ])('refuses %j with a 400 validation_failed', (baseUrl) => {
    let error: unknown;
    try {
      buildRenameKit(entries, { baseUrl });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidBaseUrlError);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ path: 'baseUrl' }] });
  });
});

/** Writes the kit beside an nginx.conf that includes it and has `nginx -t` check them; answers the directory. */
async function nginxTest(kit: { name: string; content: string }[], port: number): Promise<string> {
  const dir = testDir('delivery-nginx');
  await mkdir(join(dir, 'renamer'));
  for (const kitFile of kit) await writeFile(join(dir, kitFile.name), kitFile.content);
  await writeFile(join(dir, 'nginx.conf'), nginxConf(port));
  const test = spawnSync(NGINX, ['-t', '-c', join(dir, 'nginx.conf'), '-p', dir, '-e', 'stderr'], {
    encoding: 'utf8',
  });
  expect(test.stderr).toContain('test is successful');
  expect(test.stderr).not.toContain('[warn]');
  expect(test.status).toBe(0);
  return dir;
}

function nginxConf(port: number): string {
  return `daemon off;
master_process off;
pid nginx.pid;
error_log stderr;
events {}
http {
    access_log off;
    include renamer/redirects.nginx.conf;
    server {
        listen 127.0.0.1:${port};
        include renamer/redirects.nginx-server.conf;
    }
}
`;
}

/**
 * Serves a document root holding the kit's .htaccess (in `htaccessDir`, under `AllowOverride All`) with the real
 * apache2 in the foreground and a config of its own, which `apache2 -t` checks first (Apache reads an .htaccess only
 * when a request comes: the requests check it). The caller waits until it answers and stops it.
 */
async function apacheTest(kit: { name: string; content: string }[], port: number, htaccessDir: string) {
  // Apache started as root serves as an unprivileged user (nobody), which must read the document root: the run's
  // own directory is private to its user, so this one is in the system's temporary directory, readable by all.
  const dir = await mkdtemp(join(tmpdir(), 'renamer-apache-'));
  const conf = join(dir, 'httpd.conf');
  try {
    await chmod(dir, 0o755);
    const docroot = join(dir, 'htdocs');
    await mkdir(join(docroot, htaccessDir), { recursive: true });
    await writeFile(join(docroot, htaccessDir, '.htaccess'), file(kit, 'renamer/.htaccess'));
    await writeFile(conf, apacheConf(dir, docroot, port));
    const test = spawnSync(APACHE, ['-t', '-f', conf], { encoding: 'utf8' });
    expect(test.stderr).toContain('Syntax OK');
    expect(test.stderr).not.toMatch(/AH\d+/);
    expect(test.status).toBe(0);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const apache = spawn(APACHE, ['-DFOREGROUND', '-f', conf], { stdio: 'ignore' });
  const exited = once(apache, 'exit');
  const errorLog = () => readFile(join(dir, 'error.log'), 'utf8').catch(() => '(no error.log)');
  return {
    errorLog,
    async stop() {
      // SIGTERM: the parent stops its children and exits.
      if (apache.exitCode === null && apache.signalCode === null) apache.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function apacheConf(dir: string, docroot: string, port: number): string {
  return `ServerRoot "${dir}"
DefaultRuntimeDir "${dir}"
PidFile "${dir}/apache2.pid"
ErrorLog "${dir}/error.log"
LogLevel warn
Listen 127.0.0.1:${port}
ServerName 127.0.0.1
User #65534
Group #65534
LoadModule mpm_event_module ${APACHE_MODULES}/mod_mpm_event.so
LoadModule authz_core_module ${APACHE_MODULES}/mod_authz_core.so
LoadModule alias_module ${APACHE_MODULES}/mod_alias.so
DocumentRoot "${docroot}"
<Directory />
    AllowOverride None
    Require all denied
</Directory>
<Directory "${docroot}">
    AllowOverride All
    Require all granted
</Directory>
`;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}
