/**
 * The web app, measured in a real browser (the Chromium of @sparticuz/chromium, as the end-to-end tests drive it)
 * against the API and the development sign-in running as their own processes:
 *
 * - the first page's JavaScript and CSS, gzipped (the target is under 250 kB);
 * - time to interactive of the review page of a batch of 1,000 named images: from the navigation to the first
 *   rows shown and a key press answered (the selection moved), then the time per `j` over 100 presses;
 * - upload throughput from the page (hashing in a Web Worker, the duplicate check, then requests of ≤ 100 files,
 *   two in flight) against curl sending the same files in one request, each from the first byte to the answer.
 *
 *   npm run bench -- web [--files=50] [--images=1000]
 *
 * Appends a dated row to docs/benchmarks.md ("Web app").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import postgres from 'postgres';
import { freePort } from '../packages/runtime/src/testing/free-port';
import { buildWebIfChanged } from '../scripts/stack/web-build';
import { generatePhotos } from './photos';
import {
  API_ENTRY,
  appendBenchmarkRow,
  argValue,
  type Cleanup,
  fmt,
  type ImageFile,
  isolatedEnvironment,
  log,
  MB,
  machine,
  mapLimit,
  ROOT,
  runBench,
  sharp,
  startService,
  tempDir,
  uploadFiles,
} from './support';

const WEB_DIR = join(ROOT, 'apps/web');
const DEV_IDP_ENTRY = join(ROOT, 'apps/dev-idp/src/server.ts');
const FILES_PER_REQUEST = 100;
const KEY_PRESSES = 100;
const PHOTO_PRESSES = 20;
/** A person's look at a photo before the next `j`: the time the page has to fetch the neighbours ahead. */
const LOOK_MS = 300;

// playwright-core and the browser as the end-to-end tests have them (the root workspace does not list them).
const requireFromE2e = createRequire(join(ROOT, 'e2e/package.json'));
const { chromium: playwright } = requireFromE2e(
  'playwright-core',
) as typeof import('../e2e/node_modules/playwright-core');
const { default: chromium } = (await import(
  requireFromE2e.resolve('@sparticuz/chromium')
)) as typeof import('../e2e/node_modules/@sparticuz/chromium');
type Page = import('../e2e/node_modules/playwright-core').Page;

/** The gzipped size of what the first page loads: index.html's script and stylesheet. */
function firstPageBytes(): { js: number; css: number } {
  const html = readFileSync(join(WEB_DIR, 'dist/index.html'), 'utf8');
  const asset = (pattern: RegExp) => {
    const path = pattern.exec(html)?.[1];
    if (!path) throw new Error(`dist/index.html names no ${pattern}`);
    return gzipSync(readFileSync(join(WEB_DIR, 'dist', path))).length;
  };
  return { js: asset(/src="\/(assets\/[^"]+\.js)"/), css: asset(/href="\/(assets\/[^"]+\.css)"/) };
}

/** Small distinct JPEGs, for a batch of many images (their size is not what the review page measures). */
async function smallPhotos(dir: string, count: number): Promise<ImageFile[]> {
  return mapLimit(
    Array.from({ length: count }, (_, index) => index),
    8,
    async (index) => {
      const path = join(dir, `IMG_${String(index).padStart(4, '0')}.JPG`);
      const pixels = Buffer.alloc(160 * 120 * 3, index % 251);
      pixels.writeUInt32BE(index, 0);
      writeFileSync(
        path,
        await sharp(pixels, { raw: { width: 160, height: 120, channels: 3 } })
          .jpeg({ quality: 80 })
          .toBuffer(),
      );
      return { path, name: path.split('/').at(-1)!, size: statSync(path).size };
    },
  );
}

async function signIn(page: Page, apiUrl: string) {
  await page.goto(`${apiUrl}/`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill('bench@renamer.test');
  await page.getByLabel('Display name').fill('Bench');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${apiUrl}/`);
}

/** An API key of the signed-in person, made as the account page makes one. */
async function apiKeyOf(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const { token } = (await (await fetch('/api/auth/csrf')).json()) as { token: string };
    const created = await fetch('/api/auth/api-keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token },
      body: JSON.stringify({ name: 'bench' }),
    });
    return ((await created.json()) as { key: string }).key;
  });
}

/** curl sending the files in one multipart request; its own timing, first byte to the answer read. */
function curlUpload(apiUrl: string, key: string, files: ImageFile[]): { seconds: number; batchId: string } {
  const output = execFileSync(
    'curl',
    [
      '-sS',
      '-H',
      `authorization: Bearer ${key}`,
      ...files.flatMap((file) => ['-F', `files=@${file.path};type=image/jpeg`]),
      '-w',
      '\n%{time_total} %{http_code}',
      `${apiUrl}/api/batch`,
    ],
    { encoding: 'utf8', maxBuffer: 64 * MB },
  );
  const [body, timing] = output.trim().split(/\n(?=[\d.]+ \d+$)/);
  const [seconds, status] = timing!.split(' ');
  if (status !== '201') throw new Error(`curl's upload answered ${status}: ${body}`);
  return { seconds: Number(seconds), batchId: (JSON.parse(body!) as { batchId: string }).batchId };
}

/** The page's upload, from the click to its summary: the hashing and duplicate check, then the requests. */
async function browserUpload(page: Page, apiUrl: string, files: ImageFile[]) {
  await page.goto(`${apiUrl}/`);
  await page.getByLabel('Photos', { exact: true }).setInputFiles(files.map((file) => file.path));
  const button = page.getByRole('button', { name: `Upload ${files.length} photos` });
  const started = performance.now();
  await button.click();
  await page.getByLabel('Upload progress').waitFor({ timeout: 120_000 });
  const checked = performance.now();
  await page.getByText(`${files.length} uploaded, 0 already in your account, 0 refused.`).waitFor({ timeout: 300_000 });
  const done = performance.now();
  return { seconds: (done - started) / 1000, checkSeconds: (checked - started) / 1000 };
}

/** 1,000 images uploaded, then named as the analyser would have named them (no worker runs here). */
async function namedBatch(cleanup: Cleanup, apiUrl: string, key: string, databaseUrl: string, count: number) {
  const files = await smallPhotos(tempDir(cleanup, 'web-review'), count);
  const first = await uploadFiles(apiUrl, key, files.slice(0, FILES_PER_REQUEST));
  const batchId = first.body.batchId as string;
  for (let start = FILES_PER_REQUEST; start < files.length; start += FILES_PER_REQUEST) {
    // More files for the same person: a batch per request, folded into the first below.
    const more = await uploadFiles(apiUrl, key, files.slice(start, start + FILES_PER_REQUEST));
    if (more.status !== 201) throw new Error(`upload answered ${more.status}`);
  }
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    await sql`
      UPDATE images SET batch_id = ${batchId}
      WHERE user_id = (SELECT user_id FROM batches WHERE id = ${batchId}) AND original_filename LIKE 'IMG%'`;
    await sql`
      UPDATE images SET status = 'ready',
        filename = 'handmade-ceramic-mug-' || n || '.jpg', proposed_filename = 'handmade-ceramic-mug-' || n || '.jpg',
        alt_text = 'A handmade ceramic mug, number ' || n,
        seo = jsonb_build_object('score', 40 + n % 60, 'reasons', jsonb_build_array(
          jsonb_build_object('rule', 'concise', 'passed', true, 'detail', 'A readable length.')))
      FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM images WHERE batch_id = ${batchId}) AS numbered
      WHERE images.id = numbered.id`;
    await sql`UPDATE batches SET status = 'completed' WHERE id = ${batchId}`;
  } finally {
    await sql.end();
  }
  return batchId;
}

/** The ids of a batch's images in the review page's first order (lowest score first), read as its owner. */
async function reviewOrder(apiUrl: string, key: string, batchId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor = '';
  while (ids.length < count) {
    const response = await fetch(
      `${apiUrl}/api/image/batch/${batchId}?sort=score&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers: { authorization: `Bearer ${key}` } },
    );
    const page = (await response.json()) as { items: { id: string }[]; nextCursor: string | null };
    ids.push(...page.items.map((image) => image.id));
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return ids;
}

/** From the navigation to the first rows on screen, then to a key press answered; then per key press. */
async function reviewTiming(page: Page, apiUrl: string, batchId: string, order: readonly string[]) {
  await page.goto(`${apiUrl}/batches/${batchId}`);
  const list = page.getByRole('listbox', { name: 'Images of the batch' });
  await list.getByRole('option').first().waitFor();
  const shownMs = await page.evaluate(() => performance.now());
  await list.focus();
  await page.keyboard.press('j');
  await page.locator(`[role=listbox][aria-activedescendant="image-${order[1]}"]`).waitFor();
  const interactiveMs = await page.evaluate(() => performance.now());
  const started = performance.now();
  for (let press = 0; press < KEY_PRESSES; press++) await page.keyboard.press('j');
  await page.locator(`[role=listbox][aria-activedescendant="image-${order[KEY_PRESSES + 1]}"]`).waitFor();
  const perKeyMs = (performance.now() - started) / KEY_PRESSES;
  return { shownMs, interactiveMs, perKeyMs };
}

/**
 * Waits in the page for the large photo to show another image than `previous`, drawn, and gives the time since the
 * last `j` (a script as text: tsx would name the functions of a callback with a helper the page does not have).
 */
const PHOTO_DRAWN = `new Promise((resolve) => {
  const previous = %PREVIOUS%;
  const drawn = () => {
    const image = document.querySelector('[data-testid=large-preview]');
    if (image && image.currentSrc !== previous && image.complete && image.naturalWidth > 0) {
      resolve(performance.now() - window.jAt);
    } else requestAnimationFrame(drawn);
  };
  drawn();
})`;
const NOTE_J = `document.addEventListener('keydown', (event) => { if (event.key === 'j') window.jAt = performance.now(); }, true)`;

/** From each `j` to the large photo of the image it selects drawn: the median and the slowest of 20 presses. */
async function photoTiming(page: Page) {
  const list = page.getByRole('listbox', { name: 'Images of the batch' });
  const photo = page.getByTestId('large-preview');
  await photo.waitFor();
  await page.evaluate(NOTE_J);
  await list.focus();
  const times: number[] = [];
  for (let press = 0; press < PHOTO_PRESSES; press++) {
    await page.waitForTimeout(LOOK_MS);
    const before = (await photo.getAttribute('src')) ?? '';
    const previous = await photo.evaluate((image: { currentSrc: string }) => image.currentSrc);
    await page.keyboard.press('j');
    await page.waitForFunction(
      (src) =>
        (
          globalThis as unknown as {
            document: { querySelector(s: string): { getAttribute(n: string): string } | null };
          }
        ).document
          .querySelector('[data-testid=large-preview]')
          ?.getAttribute('src') !== src,
      before,
    );
    times.push((await page.evaluate(PHOTO_DRAWN.replace('%PREVIOUS%', JSON.stringify(previous)))) as number);
  }
  const sorted = times.sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)]!, slowestMs: sorted.at(-1)! };
}

async function main() {
  await runBench('web', 30, async (cleanup) => {
    const count = Number(argValue('files', '50'));
    const images = Number(argValue('images', '1000'));
    const m = machine();
    log(`web: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}; code ${m.code}; load ${m.loadAverage}`);

    await buildWebIfChanged(WEB_DIR);
    const bundle = firstPageBytes();
    log(`first page: ${fmt(bundle.js / 1000)} kB of JavaScript and ${fmt(bundle.css / 1000)} kB of CSS, gzipped`);

    const photos = await generatePhotos(tempDir(cleanup, 'web-photos'), count);
    const { env } = await isolatedEnvironment(cleanup, 'web');
    const apiUrl = `http://127.0.0.1:${await freePort()}`;
    const idp = await startService(cleanup, 'dev-idp', DEV_IDP_ENTRY, 'DEV_IDP_PORT', {
      ...env,
      NODE_ENV: 'development',
      // Its issuer is http://localhost:…, which Node may look up as ::1 first.
      HOST: '::',
      PUBLIC_URL: apiUrl,
    });
    // Development: a production API refuses an identity provider without TLS, as it should.
    const api = await startService(cleanup, 'api', API_ENTRY, 'API_PORT', {
      ...env,
      NODE_ENV: 'development',
      WEB_DIST_DIR: join(WEB_DIR, 'dist'),
      API_PORT: new URL(apiUrl).port,
      PUBLIC_URL: apiUrl,
      OIDC_ISSUER: `http://localhost:${new URL(idp.url).port}`,
    });
    if (api.url !== apiUrl) throw new Error(`the API listens on ${api.url}, not ${apiUrl}`);

    const browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args });
    cleanup.add('close the browser', () => browser.close());
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await signIn(page, apiUrl);
    const key = await apiKeyOf(page);
    const sql = postgres(env.DATABASE_URL!, { max: 1, onnotice: () => undefined });
    await sql`UPDATE users SET quota = 1000000`;
    await sql.end();

    const bytes = photos.reduce((sum, file) => sum + file.size, 0);
    const curl = curlUpload(apiUrl, key, photos);
    await fetch(`${apiUrl}/api/batch/${curl.batchId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
    const fromPage = await browserUpload(page, apiUrl, photos);
    const curlRate = bytes / MB / curl.seconds;
    const pageRate = bytes / MB / fromPage.seconds;
    log(`upload of ${count} photos, ${fmt(bytes / MB)} MB:`);
    log(`  curl, one request: ${fmt(curl.seconds, 2)} s = ${fmt(curlRate)} MB/s`);
    log(
      `  the page: ${fmt(fromPage.seconds, 2)} s = ${fmt(pageRate)} MB/s (${fmt(fromPage.checkSeconds, 2)} s of it ` +
        `hashing and the duplicate check); ratio to curl ${fmt(pageRate / curlRate, 2)}`,
    );

    const batchId = await namedBatch(cleanup, apiUrl, key, env.DATABASE_URL!, images);
    const order = await reviewOrder(apiUrl, key, batchId, KEY_PRESSES + 2);
    const review = await reviewTiming(page, apiUrl, batchId, order);
    log(
      `review of ${images} images: first rows at ${fmt(review.shownMs, 0)} ms, interactive at ` +
        `${fmt(review.interactiveMs, 0)} ms after the navigation; ${fmt(review.perKeyMs, 1)} ms per key press`,
    );
    const photo = await photoTiming(page);
    log(
      `j to the next large photo drawn: median ${fmt(photo.medianMs, 0)} ms, slowest ${fmt(photo.slowestMs, 0)} ms ` +
        `(${PHOTO_PRESSES} presses, ${LOOK_MS} ms apart)`,
    );

    appendBenchmarkRow('Web app', [
      new Date().toISOString().slice(0, 10),
      m.code,
      `${m.cpus}`,
      fmt(bundle.js / 1000),
      `${images}`,
      fmt(review.shownMs, 0),
      fmt(review.interactiveMs, 0),
      fmt(review.perKeyMs, 1),
      `${fmt(photo.medianMs, 0)} / ${fmt(photo.slowestMs, 0)}`,
      `${count} (${fmt(bytes / MB)} MB)`,
      fmt(curlRate),
      fmt(pageRate),
      fmt(fromPage.checkSeconds, 2),
      fmt(pageRate / curlRate, 2),
    ]);
    log('row appended to docs/benchmarks.md ("Web app")');
  });
}

await main();
