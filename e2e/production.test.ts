import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Json } from '@renamer/api/testing';
import { createDatabase, dropDatabase } from '@renamer/db';
import { createDevIdp, type DevIdp } from '@renamer/dev-idp';
import { CookieJar, makeTestCertificate, signInThroughDevIdp, type TestCertificate } from '@renamer/dev-idp/testing';
import { freePort, type SpawnedService, testServiceEnv, waitForStatus } from '@renamer/runtime/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from './support/otlp-receiver';
import {
  createProductionReplay,
  type ImageCommand,
  REPO,
  startImageCommand,
  UNPRIVILEGED,
} from './support/production-build';

/**
 * What ships, run: the Dockerfile's own lines replayed outside a container (dependencies from the files it copies
 * first, the build, each app deployed with production dependencies only into an /app of its own, the migrate
 * target), then the three services started from there as each image's CMD starts them, as an unprivileged user
 * with NODE_ENV=production, and a batch run through them, with a sign-in through an HTTPS OpenID provider.
 */

const APPS = { api: 0, worker: 0, 'admin-api': 0 };
const CLIENT = { id: 'renamer-production', secret: 'production-check-secret' };

let root: string;
let home: string;
let certificate: TestCertificate;
let idp: DevIdp;
let databaseName: string;
let replay: ReturnType<typeof createProductionReplay>;
const images = {} as Record<keyof typeof APPS, ImageCommand>;
const services: SpawnedService[] = [];
let api: string;
let adminApi: string;
let settings: Record<string, string>;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

/** Runs an image's command to its end, failing with its output when the exit code is not 0. */
async function runToEnd(image: ImageCommand): Promise<void> {
  const process = startImageCommand(image, settings, home);
  const code = await process.exited;
  if (code !== 0) throw new Error(`${image.command} ${image.args.join(' ')} exited with ${code}:\n${process.output()}`);
}

async function startImage(app: keyof typeof APPS, healthUrl: string) {
  const service = startImageCommand(images[app], settings, home);
  services.push(service);
  await waitForStatus(service, `${healthUrl}/health/ready`, 200, 60_000);
  return service;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'renamer-production-'));
  replay = createProductionReplay(root);
  replay.prepareContext();
  replay.build();
  for (const app of Object.keys(APPS) as (keyof typeof APPS)[]) {
    APPS[app] = await freePort();
    images[app] = replay.app(app, APPS[app]);
  }

  home = join(root, 'home');
  mkdirSync(join(home, 'tmp'), { recursive: true });
  for (const dir of [home, join(home, 'tmp')]) chownSync(dir, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
  mkdirSync(join(root, 'certs'));
  certificate = makeTestCertificate(join(root, 'certs'));

  api = `http://127.0.0.1:${APPS.api}`;
  adminApi = `http://127.0.0.1:${APPS['admin-api']}`;
  idp = createDevIdp({
    issuer: 'https://localhost',
    port: 0,
    tls: certificate,
    clients: [{ clientId: CLIENT.id, clientSecret: CLIENT.secret, redirectUris: [`${api}/api/auth/callback`] }],
  });
  const issuer = await idp.listen();
  receiver = await startOtlpReceiver();

  const base = testServiceEnv('production');
  databaseName = `renamer_production_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  settings = {
    DATABASE_URL: await createDatabase(base.DATABASE_URL, databaseName),
    REDIS_URL: base.REDIS_URL,
    REDIS_PREFIX: base.REDIS_PREFIX,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SESSION_SECRET: randomUUID() + randomUUID(),
    PUBLIC_URL: api,
    API_PORT: String(APPS.api),
    WORKER_PORT: String(APPS.worker),
    ADMIN_API_PORT: String(APPS['admin-api']),
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT.id,
    OIDC_CLIENT_SECRET: CLIENT.secret,
    NODE_EXTRA_CA_CERTS: certificate.certFile,
    ...receiver.env,
  };
  await runToEnd(replay.migrateCommand());
  await Promise.all([
    startImage('api', api),
    startImage('worker', `http://127.0.0.1:${APPS.worker}`),
    startImage('admin-api', adminApi),
  ]);
}, 300_000);

afterAll(async () => {
  // Each step on its own, so that one failing leaves none of the others undone (the folder holds about 1.4 GB).
  const steps = [
    ...services.map((service) => () => service.stop()),
    () => idp?.close(),
    () => receiver?.close(),
    () => databaseName && dropDatabase(process.env.DATABASE_URL!, databaseName),
    () => root && rmSync(root, { recursive: true, force: true }),
  ];
  const failures = (await Promise.allSettled(steps.map(async (step) => step()))).filter(
    (result) => result.status === 'rejected',
  );
  if (failures.length > 0) throw new AggregateError(failures.map((failure) => failure.reason));
});

/** `/proc/<pid>/status`'s real uid and the NODE_ENV the process was started with. */
function identityOf(service: SpawnedService) {
  const pid = service.child.pid!;
  const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return { uid, nodeEnv: environ.find((entry) => entry.startsWith('NODE_ENV='))?.slice('NODE_ENV='.length) };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

/** A shop's card with printed words on a wooden backdrop, for the text reader. */
async function labelPicture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="683">
    <rect width="1024" height="683" fill="#6b4a2f"/>
    <rect x="212" y="120" width="600" height="440" rx="20" fill="#f4ecd8"/>
    <text x="512" y="280" font-family="DejaVu Sans" font-size="56" text-anchor="middle" fill="#2b1d10">Fresh Bread</text>
    <text x="512" y="400" font-family="DejaVu Sans" font-weight="bold" font-size="72" text-anchor="middle" fill="#8a2b1a">BAKERY</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

describe('the production build, run as shipped', () => {
  let key: string;
  let batch: Json;
  let imagesOfBatch: Json[];

  it('fetches dependencies from the lockfile and what it names alone, and runs each service as its image does', () => {
    // No source yet: a change to one must not fetch the dependencies again.
    expect(replay.fetchedFrom()).toContain('pnpm-lock.yaml');
    expect(replay.fetchedFrom()).not.toContain('apps');
    expect(replay.fetchedFrom()).not.toContain('packages');
    for (const service of services) {
      expect(identityOf(service)).toEqual({ uid: UNPRIVILEGED.uid, nodeEnv: 'production' });
    }
  });

  it('creates the first user and API key with the operator command of the API image, printing the key once', async () => {
    const command = startImageCommand(
      {
        ...images.api,
        args: ['dist/commands/create-api-key.js', '--email', 'ops@example.com', '--admin', '--key-name', 'first'],
      },
      settings,
      home,
    );
    expect(await command.exited, command.output()).toBe(0);
    // The key alone on stdout, for a script to take; what was done on stderr, without it.
    expect(command.stdout()).toMatch(/^rn_[\w-]+\n$/);
    key = command.stdout().trim();
    expect(command.output().split(key)).toHaveLength(2);
    const admin = await json(`${adminApi}/api/admin/users`, { headers: bearer(key) });
    expect(admin.status).toBe(200);
  });

  it('names a photo, a HEIC and a picture with text', async () => {
    const form = new FormData();
    const files = [
      { name: 'IMG_2041.JPG', type: 'image/jpeg', bytes: readFileSync(join(REPO, 'fixtures/photos/kite.jpg')) },
      {
        name: 'IMG_0007.HEIC',
        type: 'image/heic',
        bytes: readFileSync(join(REPO, 'fixtures/camera/colorful-cups.heic')),
      },
      { name: 'DSC_0100.JPG', type: 'image/jpeg', bytes: await labelPicture() },
    ];
    for (const file of files) form.append('files', new Blob([file.bytes], { type: file.type }), file.name);
    const uploaded = await json(`${api}/api/batch`, { method: 'POST', headers: bearer(key), body: form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.accepted).toHaveLength(3);

    const deadline = Date.now() + 90_000;
    do {
      batch = (await json(`${api}/api/batch/${uploaded.body.batchId}/status`, { headers: bearer(key) })).body;
      if (['completed', 'failed', 'cancelled'].includes(batch.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    } while (Date.now() < deadline);
    expect(batch.status).toBe('completed');
    expect(batch.counts.ready).toBe(3);

    imagesOfBatch = (await json(`${api}/api/image/batch/${batch.batchId}`, { headers: bearer(key) })).body.items;
    const byName = Object.fromEntries(imagesOfBatch.map((image) => [image.originalFilename, image]));
    for (const image of imagesOfBatch) expect(image.proposedFilename).toMatch(/^[a-z0-9-]+\.(jpg|heic)$/);
    expect(byName['IMG_0007.HEIC']!.proposedFilename).toMatch(/\.heic$/);
    const words = byName['DSC_0100.JPG']!.visionTags.filter((tag: Json) => tag.source === 'text');
    expect(words.map((tag: Json) => tag.label)).toContain('bakery');
    expect(byName['DSC_0100.JPG']!.proposedFilename).toContain('bakery');
  });

  it('serves each image’s preview', async () => {
    for (const image of imagesOfBatch) {
      const response = await fetch(`${api}/api/image/${image.id}/preview`, { headers: bearer(key) });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).format).toBe('webp');
    }
  });

  it('serves the web app from the API’s origin', async () => {
    const page = await fetch(`${api}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const asset = await fetch(new URL(script!, api));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
  });

  it('streams a ZIP with the SEO fields written into each copy', async () => {
    const download = await json(`${api}/api/batch/${batch.batchId}/download?embed=true`, {
      method: 'POST',
      headers: bearer(key),
    });
    expect(download.status).toBe(200);
    const archive = await fetch(download.body.url);
    expect(archive.headers.get('content-type')).toBe('application/zip');
    const path = join(root, 'batch.zip');
    writeFileSync(path, Buffer.from(await archive.arrayBuffer()));
    execFileSync('unzip', ['-tq', path]);
    const entries = execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(entries).toEqual(imagesOfBatch.map((image) => image.filename).sort());
    const photo = imagesOfBatch.find((image) => image.originalFilename === 'IMG_2041.JPG')!;
    const copy = execFileSync('unzip', ['-p', path, photo.filename], { maxBuffer: 64 * 1024 * 1024 });
    expect(copy.includes('<dc:title>')).toBe(true);
    expect(copy.includes(photo.altText)).toBe(true);
  });

  it('signs a person in through an HTTPS OpenID provider, with a Secure session cookie and CSRF checked', async () => {
    const cookieJar = new CookieJar();
    const { stoppedAt, response } = await signInThroughDevIdp({
      startUrl: `${api}/api/auth/login?returnTo=/`,
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      fetch: certificate.fetch,
      cookieJar,
      stopAt: (location) => location.origin === api && location.pathname === '/',
    });
    expect(stoppedAt?.pathname).toBe('/');
    const sessionCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith('session='));
    expect(sessionCookie).toMatch(/;\s*Secure/i);
    expect(sessionCookie).toMatch(/;\s*HttpOnly/i);

    const cookie = cookieJar.headerFor(new URL(api))!;
    const me = await json(`${api}/api/auth/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body.displayName).toBe('Ada Lovelace');

    const create = (headers: Record<string, string>) =>
      fetch(`${api}/api/auth/api-keys`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'from the browser' }),
      });
    expect((await create({})).status).toBe(403);
    const csrf = await fetch(`${api}/api/auth/csrf`, { headers: { cookie } });
    cookieJar.storeFrom(new URL(api), csrf);
    const { token } = (await csrf.json()) as { token: string };
    const created = await create({ cookie: cookieJar.headerFor(new URL(api))!, 'x-csrf-token': token });
    expect(created.status).toBe(201);
  });
  it('names each service to OpenTelemetry by its own package', async () => {
    const named = () => new Set(receiver.spans.map((span) => span.service));
    await expect.poll(named, { timeout: 15_000 }).toEqual(new Set(['api', 'worker', 'admin-api']));
  });
});
