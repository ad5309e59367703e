import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { testDir } from '@renamer/runtime/testing';
import { parse } from 'csv-parse/sync';
import { ExifTool } from 'exiftool-vendored';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DownloadWorld, run, startDownloadWorld } from './downloads-world';

const exiftool = new ExifTool({ useMWG: false });
afterAll(() => exiftool.end());

/** Every tag exiftool reads, by group-qualified name, without what describes the file rather than its metadata. */
async function tagsOf(path: string): Promise<Record<string, unknown>> {
  const tags = (await exiftool.readRaw(path, { readArgs: ['-G1', '-a'] })) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(tags).filter(
      ([name]) => !/^(System|File|ExifTool|Composite|SourceFile|JFIF|PNG|RIFF|errors$|warnings$)/.test(name),
    ),
  );
}

/** Tags that tell where a photo was taken. */
const LOCATION = /gps|location|city|country|sub-?location|province|state/i;

/**
 * A camera JPEG 2400×1600 stored sideways (orientation 6: upright it is 1600×2400) with a Display P3 profile, the
 * camera's make and model, GPS in EXIF and XMP, and where it was taken in IPTC and XMP.
 */
async function cameraPhoto(dir: string): Promise<Buffer> {
  const width = 2400;
  const height = 1600;
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7 + Math.floor(i / (width * 3)) * 13) % 251;
  const path = join(dir, 'camera.jpg');
  await sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withIccProfile('p3')
    .toFile(path);
  await exiftool.write(
    path,
    {
      'IFD0:Make': 'Fujifilm',
      'IFD0:Model': 'X-T5',
      'ExifIFD:DateTimeOriginal': '2025:10:04 17:42:09',
      'GPS:GPSLatitude': 52.52,
      'GPS:GPSLatitudeRef': 'N',
      'GPS:GPSLongitude': 13.4,
      'GPS:GPSLongitudeRef': 'E',
      'XMP-exif:GPSLatitude': '52.52 N',
      'IPTC:City': 'Berlin',
      'IPTC:Sub-location': 'Mitte',
      'IPTC:Province-State': 'Berlin',
      'IPTC:Country-PrimaryLocationName': 'Germany',
      'XMP-photoshop:City': 'Berlin',
      'XMP-iptcCore:Location': 'Home',
      'XMP-iptcExt:LocationCreatedCity': 'Berlin',
    } as never,
    { writeArgs: ['-overwrite_original', '-IFD0:Orientation#=6'] },
  );
  return readFile(path);
}

/** A small PNG with transparency: 200×100. */
function smallPng(): Promise<Buffer> {
  return sharp({ create: { width: 200, height: 100, channels: 4, background: { r: 200, g: 40, b: 40, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

describe('copies made on the way out: strip and web-ready', () => {
  let world: DownloadWorld;
  let owner: Awaited<ReturnType<DownloadWorld['stack']['createUser']>>;
  let batch: Awaited<ReturnType<DownloadWorld['uploadAnalysed']>>;
  let work: string;
  let originalTags: Record<string, unknown>;

  beforeAll(async () => {
    // S3: a plain single download is the store's presigned link, so a copy's link is told apart from it.
    world = await startDownloadWorld('downloads-copies', 's3');
    owner = await world.stack.createUser();
    work = testDir('downloads-copies-work');
    const photo = await cameraPhoto(work);
    batch = await world.uploadAnalysed(owner.key, [
      { name: 'DSCF2001.JPG', bytes: photo, type: 'image/jpeg' },
      { name: 'badge.png', bytes: await smallPng(), type: 'image/png' },
    ]);
    await writeFile(join(work, 'original.jpg'), photo);
    originalTags = await tagsOf(join(work, 'original.jpg'));
  }, 120_000);
  afterAll(() => world?.close());

  /** Asks for the batch's archive with `query`, fetches it and unpacks it: the entries' names and their folder. */
  async function archive(query: string) {
    const { status, body } = await world.get(`/api/batch/${batch.batchId}/download?${query}`, owner.key, {
      method: 'POST',
    });
    expect(status).toBe(200);
    expect(body!.url).toMatch(new RegExp(`^${world.api.url}/api/files/`));
    const response = await fetch(body!.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    const dir = await mkdtemp(join(work, 'zip-'));
    const path = join(dir, 'batch.zip');
    await writeFile(path, Buffer.from(await response.arrayBuffer()));
    await run('unzip', ['-t', path]);
    const names = (await run('unzip', ['-Z1', path])).stdout.trim().split('\n');
    const out = join(dir, 'out');
    await run('unzip', ['-q', path, '-d', out]);
    return { names, out, file: (name: string) => join(out, name) };
  }

  /** The uploaded JPEG's and PNG's names in the archive (the photo first: upload order). */
  const [photoIndex, pngIndex] = [0, 1];

  it('strip=location: no GPS and no place in the copies, the camera and the date kept', async () => {
    expect(Object.keys(originalTags).filter((name) => LOCATION.test(name)).length).toBeGreaterThan(5);
    const { names, file } = await archive('strip=location');
    const tags = await tagsOf(file(names[photoIndex]!));
    expect(Object.keys(tags).filter((name) => LOCATION.test(name))).toEqual([]);
    expect(tags['IFD0:Model']).toBe('X-T5');
    expect(tags['IFD0:Make']).toBe('Fujifilm');
    expect(tags['ExifIFD:DateTimeOriginal']).toBe('2025:10:04 17:42:09');
    expect(tags['IFD0:Orientation']).toBe(originalTags['IFD0:Orientation']);
  });

  it('strip=all: only the orientation and the colour profile are left', async () => {
    const { names, file } = await archive('strip=all');
    const tags = await tagsOf(file(names[photoIndex]!));
    expect(tags['IFD0:Orientation']).toBe('Rotate 90 CW');
    expect(tags['ICC_Profile:ProfileDescription']).toBe(originalTags['ICC_Profile:ProfileDescription']);
    // exiftool keeps the structural tags an EXIF directory needs around the orientation; nothing else.
    const left = Object.keys(tags).filter((name) => !/^ICC[-_]/.test(name));
    expect(left.filter((name) => !['IFD0:Orientation', 'IFD0:YCbCrPositioning'].includes(name))).toEqual([]);
  });

  it('strip=none (the default) serves the stored bytes unchanged', async () => {
    const { names, file } = await archive('strip=none');
    expect(Buffer.compare(await readFile(file(names[photoIndex]!)), batch.images[0]!.bytes)).toBe(0);
    expect(Buffer.compare(await readFile(file(names[pngIndex]!)), batch.images[1]!.bytes)).toBe(0);
  });

  it('the single link with strip=location is the API’s copy without GPS, never the store’s link; the original stays', async () => {
    const { imageId } = batch.images[0]!;
    const plain = await world.get(`/api/image/${imageId}/download`, owner.key);
    expect(plain.body!.url.startsWith(world.linkOrigin)).toBe(true);

    const { status, body } = await world.get(`/api/image/${imageId}/download?strip=location`, owner.key);
    expect(status).toBe(200);
    expect(body!.url).toMatch(new RegExp(`^${world.api.url}/api/files/`));
    const response = await fetch(body!.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    const path = join(work, 'single.jpg');
    await writeFile(path, Buffer.from(await response.arrayBuffer()));
    const tags = await tagsOf(path);
    expect(Object.keys(tags).filter((name) => LOCATION.test(name))).toEqual([]);
    expect(tags['IFD0:Model']).toBe('X-T5');

    // Listed as asked for.
    const listed = await world.get('/api/downloads', owner.key);
    expect(listed.body!.items[0]).toMatchObject({
      kind: 'image',
      imageId,
      options: { embed: false, strip: 'location' },
    });

    // The stored original still has its position.
    const stored = Buffer.from(await (await fetch(plain.body!.url)).arrayBuffer());
    expect(Buffer.compare(stored, batch.images[0]!.bytes)).toBe(0);
  });

  it('resize=1600&format=webp: WebP entries at most 1600 px, upright, never enlarged, the manifest naming them', async () => {
    const { names, file } = await archive('resize=1600&format=webp&quality=75&manifest=true&strip=location');
    const images = names.filter((name) => !name.startsWith('renamer/'));
    expect(images).toHaveLength(2);
    for (const name of images) expect(name).toMatch(/\.webp$/);

    const photo = await sharp(file(images[photoIndex]!)).metadata();
    expect(photo.format).toBe('webp');
    // Stored 2400×1600 sideways: upright it is portrait, 1600 on its long side.
    expect([photo.width, photo.height]).toEqual([1067, 1600]);
    const photoTags = await tagsOf(file(images[photoIndex]!));
    expect(Object.keys(photoTags).filter((name) => LOCATION.test(name))).toEqual([]);
    expect(photoTags['IFD0:Model']).toBe('X-T5');

    const badge = await sharp(file(images[pngIndex]!)).metadata();
    expect(badge).toMatchObject({ format: 'webp', width: 200, height: 100, hasAlpha: true });

    const manifest = parse(await readFile(file('renamer/manifest.csv')), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(manifest.map((line) => line.new_name)).toEqual(images);
    expect(manifest.map((line) => line.original_name)).toEqual(['DSCF2001.JPG', 'badge.png']);

    const listed = await world.get('/api/downloads', owner.key);
    expect(listed.body!.items[0]).toMatchObject({
      kind: 'archive',
      entries: 2,
      options: { strip: 'location', resize: 1600, format: 'webp', quality: 75, manifest: true },
    });
  });

  it.each([
    ['strip=gps', 'strip'],
    ['format=gif', 'format'],
    ['resize=0', 'resize'],
    ['quality=101', 'quality'],
  ])('refuses %s with 400 validation_failed', async (query, field) => {
    const response = await fetch(`${world.api.url}/api/batch/${batch.batchId}/download?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await response.json()) as { code: string; detail?: string; errors?: unknown };
    expect(problem.code).toBe('validation_failed');
    expect(JSON.stringify(problem)).toContain(field);
  });

  it('refuses strip=gps on the single link too', async () => {
    const { status, body } = await world.get(`/api/image/${batch.images[0]!.imageId}/download?strip=gps`, owner.key);
    expect(status).toBe(400);
    expect(body!.code).toBe('validation_failed');
  });
});
