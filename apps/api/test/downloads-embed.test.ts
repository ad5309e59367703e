import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { testDir } from '@renamer/runtime/testing';
import { parse } from 'csv-parse/sync';
import { ExifTool } from 'exiftool-vendored';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cameraJpeg,
  type DownloadWorld,
  type Driver,
  recordedDownload,
  run,
  startDownloadWorld,
} from './downloads-world';

const exiftool = new ExifTool();
afterAll(() => exiftool.end());

/** The SEO fields and the camera's tags as exiftool reads them back. */
async function tagsOf(path: string) {
  const tags = (await exiftool.readRaw(path, { readArgs: ['-G1', '-a'] })) as Record<string, unknown>;
  return {
    title: tags['XMP-dc:Title'],
    subject: tags['XMP-dc:Subject'],
    keywords: tags['IPTC:Keywords'],
    camera: [tags['IFD0:Make'], tags['IFD0:Model'], tags['ExifIFD:DateTimeOriginal']],
    gps: [tags['GPS:GPSLatitude'], tags['GPS:GPSLongitude']],
  };
}

const asList = (value: unknown) => (Array.isArray(value) ? value : [value]);

describe.each<Driver>(['fs', 's3'])('downloads with the SEO fields written in (%s driver)', (driver) => {
  let world: DownloadWorld;
  let owner: Awaited<ReturnType<DownloadWorld['stack']['createUser']>>;
  let batch: Awaited<ReturnType<DownloadWorld['uploadAnalysed']>>;
  let work: string;
  let original: string;

  beforeAll(async () => {
    world = await startDownloadWorld(`downloads-embed-${driver}`, driver);
    owner = await world.stack.createUser();
    work = testDir(`downloads-embed-${driver}-work`);
    batch = await world.uploadAnalysed(
      owner.key,
      await Promise.all(
        [1, 2].map(async (seed) => ({ name: `DSCF10${seed}.JPG`, bytes: await cameraJpeg(seed), type: 'image/jpeg' })),
      ),
      { keywords: 'harbour' },
    );
    original = join(work, 'original.jpg');
    await writeFile(original, batch.images[0]!.bytes);
  }, 90_000);
  afterAll(() => world?.close());

  it('serves one image as a copy carrying its title and keywords through the API, the camera’s tags unchanged', async () => {
    const { imageId } = batch.images[0]!;
    const { status, body } = await world.get(`/api/image/${imageId}/download?embed=true`, owner.key);
    expect(status).toBe(200);
    // A modified copy: always the API's link, whatever the driver.
    expect(body!.url).toMatch(new RegExp(`^${world.api.url}/api/files/`));

    const response = await fetch(body!.url);
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')![1]!;
    expect(filename).toMatch(/^harbour.*\.jpg$/);
    const path = join(work, filename);
    await writeFile(path, bytes);

    const [embedded, before] = await Promise.all([tagsOf(path), tagsOf(original)]);
    expect(embedded.title).toBe(
      filename
        .replace(/\.jpg$/, '')
        .replaceAll('-', ' ')
        .replace(/^h/, 'H'),
    );
    expect(asList(embedded.subject)).toContain('harbour');
    expect(asList(embedded.keywords)).toContain('harbour');
    expect(embedded.camera).toEqual(before.camera);
    expect(embedded.gps).toEqual(before.gps);
    expect(before.title).toBeUndefined();

    const row = await recordedDownload(world, owner.user.id);
    expect(row).toMatchObject({ kind: 'image', imageId, bytes: bytes.length });
  });

  it('puts embedded copies and the rename kit into the ZIP', async () => {
    const baseUrl = 'https://shop.example/wp-content/uploads/2026/11/';
    const query = `embed=true&manifest=true&baseUrl=${encodeURIComponent(baseUrl)}`;
    const { status, body } = await world.get(`/api/batch/${batch.batchId}/download?${query}`, owner.key, {
      method: 'POST',
    });
    expect(status).toBe(200);
    const preview = await world.get(`/api/batch/${batch.batchId}/preview`, owner.key);
    const entries = preview.body!.entries as { filename: string; originalFilename: string }[];
    expect(body!.entries).toBe(entries.length);
    const names = entries.map((entry) => entry.filename);

    const dir = await mkdtemp(join(work, 'zip-'));
    const response = await fetch(body!.url);
    expect(response.status).toBe(200);
    const path = join(dir, 'batch.zip');
    const bytes = Buffer.from(await response.arrayBuffer());
    await writeFile(path, bytes);
    await run('unzip', ['-t', path]);
    const listed = (await run('unzip', ['-Z1', path])).stdout.trim().split('\n');
    expect(listed.slice(0, names.length)).toEqual(names);
    expect(listed.slice(names.length)).toEqual(
      expect.arrayContaining([
        'renamer/manifest.csv',
        'renamer/redirects.nginx.conf',
        'renamer/.htaccess',
        'renamer/redirects.csv',
        'renamer/image-sitemap.xml',
      ]),
    );

    const out = join(dir, 'out');
    await run('unzip', ['-q', path, '-d', out]);
    const manifest = parse(await readFile(join(out, 'renamer/manifest.csv')), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(manifest.map((line) => line.new_name)).toEqual(names);
    expect(manifest.map((line) => line.original_name)).toEqual(entries.map((entry) => entry.originalFilename));
    const sitemap = await readFile(join(out, 'renamer/image-sitemap.xml'), 'utf8');
    for (const name of names) expect(sitemap).toContain(`${baseUrl}${name}`);

    const [embedded, before] = await Promise.all([tagsOf(join(out, names[0]!)), tagsOf(original)]);
    expect(asList(embedded.subject)).toContain('harbour');
    expect(embedded.camera).toEqual(before.camera);

    const row = await recordedDownload(world, owner.user.id);
    expect(row).toMatchObject({ kind: 'zip', bytes: bytes.length });
  });
});
