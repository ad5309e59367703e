// A Node.js base image made from Debian's archive with mmdebstrap, for machines that reach no image registry: the
// Dockerfile's NODE_IMAGE. Made once and kept under its tag; `--rebuild-base` makes it again.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Engine, imageExists, run, say, succeeds } from './engine';

export const DEBIAN_BASE = 'localhost/renamer-node-base:20';
/** trixie's nodejs is 20.19 (bookworm's is 18, older than the 20.9 the project needs). */
const SUITE = 'trixie';
/**
 * perl: exiftool-vendored runs the system perl, and perl-base alone lacks Digest::MD5, Encode and Time::Local
 * (exiftool then writes a zero IPTC digest, and skips some conversions).
 */
const PACKAGES = ['nodejs', 'ca-certificates', 'perl'];
/**
 * Debian's nodejs comes without npm, and Debian's `npm` package brings some 400 more (python3, webpack, a C
 * toolchain's headers…): npm from the npm registry, unpacked beside it, is all the Dockerfile's global pnpm
 * install needs. npm 10 runs on Node 20.
 */
const NPM = 'npm@10';
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Where the host's CA bundle goes: the registries' TLS is intercepted on these machines. */
const CA_IN_IMAGE = '/usr/local/share/ca-certificates/host/bundle.crt';
/** The host's apt settings that the base's apt needs as well. */
const APT_OPTIONS = ['Acquire::http::Proxy', 'Acquire::https::Proxy', 'Acquire::Check-Valid-Until'];

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The Debian mirror the host's apt uses (DEBIAN_MIRROR overrides), and its security archive when it has one. */
function hostMirrors(): { main: string; security?: string } {
  const files = ['/etc/apt/sources.list'];
  if (existsSync('/etc/apt/sources.list.d')) {
    for (const name of readdirSync('/etc/apt/sources.list.d')) {
      if (/\.(list|sources)$/.test(name)) files.push(join('/etc/apt/sources.list.d', name));
    }
  }
  const uris = files.filter((file) => existsSync(file)).flatMap((file) => debianArchives(readFileSync(file, 'utf8')));
  const main =
    process.env.DEBIAN_MIRROR ?? uris.find((uri) => uri.endsWith('/debian')) ?? 'http://deb.debian.org/debian';
  return { main, security: uris.find((uri) => uri.endsWith('/debian-security')) };
}

/**
 * The archives of apt entries with Debian's `main` component, in one-line and deb822 form: a vendor's repository
 * (Docker's is `…/linux/debian bookworm stable`) has none.
 */
function debianArchives(sources: string): string[] {
  const urls = (text: string) => text.match(/\bhttps?:\/\/\S+/g) ?? [];
  const oneLine = sources
    .split('\n')
    .filter((line) => /^\s*deb\s/.test(line) && /\smain(\s|$)/.test(line))
    .flatMap(urls);
  const deb822 = sources
    .split(/\n\s*\n/)
    .filter((block) => /^Components:.*\bmain\b/m.test(block))
    .flatMap((block) => urls(/^URIs:(.*)$/m.exec(block)?.[1] ?? ''));
  return [...oneLine, ...deb822].map((uri) => uri.replace(/\/+$/, ''));
}

/** The base image's name, made first unless it exists already (or `rebuild`). */
export function ensureDebianBase(engine: Engine, { rebuild = false } = {}): string {
  if (!rebuild && imageExists(engine, DEBIAN_BASE)) {
    say(`base ${DEBIAN_BASE} exists (--rebuild-base makes it again)`);
    return DEBIAN_BASE;
  }
  if (!succeeds('mmdebstrap', ['--version'])) {
    throw new Error('mmdebstrap is missing (apt-get install mmdebstrap), or set NODE_IMAGE');
  }
  const startedAt = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'renamer-base-'));
  try {
    const mirrors = hostMirrors();
    say(`making ${DEBIAN_BASE}: Debian ${SUITE} from ${mirrors.main} with ${PACKAGES.join(', ')} and ${NPM}`);
    run('npm', ['pack', NPM, '--pack-destination', work, '--silent']);
    const npmTarball = join(work, readdirSync(work).find((name) => name.endsWith('.tgz'))!);
    const hostCa = process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt';
    const hooks = [
      'chroot "$1" useradd --create-home --uid 1000 --user-group --shell /bin/bash node',
      `mkdir -p "$1/usr/local/lib/node_modules/npm" && tar -xzf ${quote(npmTarball)} --strip-components=1 ` +
        '-C "$1/usr/local/lib/node_modules/npm" && ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" ' +
        '&& ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
    ];
    if (existsSync(hostCa)) {
      hooks.push(`mkdir -p "$1${dirname(CA_IN_IMAGE)}" && cp ${quote(hostCa)} "$1${CA_IN_IMAGE}"`);
    }
    const aptOptions = run('apt-config', ['dump', ...APT_OPTIONS])
      .split('\n')
      .filter(Boolean);
    const sources = [`deb ${mirrors.main} ${SUITE} main`, `deb ${mirrors.main} ${SUITE}-updates main`];
    if (mirrors.security) sources.push(`deb ${mirrors.security} ${SUITE}-security main`);
    const rootfs = join(work, 'rootfs.tar');
    run('mmdebstrap', [
      '--variant=minbase',
      `--include=${PACKAGES.join(',')}`,
      ...aptOptions.map((option) => `--aptopt=${option}`),
      ...hooks.map((hook) => `--customize-hook=${hook}`),
      SUITE,
      rootfs,
      ...sources,
    ]);
    const changes = [`ENV PATH=${PATH}`, 'CMD ["node"]'];
    if (existsSync(hostCa)) changes.push(`ENV NODE_EXTRA_CA_CERTS=${CA_IN_IMAGE}`);
    run(engine.name, ['import', ...changes.flatMap((change) => ['--change', change]), rootfs, DEBIAN_BASE]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const version = run(engine.name, ['run', '--rm', ...engine.runFlags, DEBIAN_BASE, 'node', '-p', 'process.version']);
  const [major = 0, minor = 0] = version.trim().slice(1).split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 9)) {
    run(engine.name, ['rmi', DEBIAN_BASE]);
    throw new Error(`Debian ${SUITE}'s Node is ${version.trim()}: the project needs 20.9 or later`);
  }
  say(`made ${DEBIAN_BASE} (Node ${version.trim()}) in ${Math.round((performance.now() - startedAt) / 1000)} s`);
  return DEBIAN_BASE;
}
