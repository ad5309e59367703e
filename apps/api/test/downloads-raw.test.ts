import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDir } from '@renamer/runtime/testing';
import { ExifTool } from 'exiftool-vendored';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DownloadWorld, run, startDownloadWorld } from './downloads-world';

const CAMERA_DIR = fileURLToPath(new URL('../../../fixtures/camera/', import.meta.url));
const exiftool = new ExifTool();
afterAll(() => exiftool.end());

interface Named {
  id: string;
  originalFilename: string;
  filename: string;
}

const stemOf = (filename: string) => filename.slice(0, filename.lastIndexOf('.'));

/** The JPEG a camera writes beside its RAW file: the same picture, the same EXIF (camera, capture time). */
async function jpegOfTheShot(raw: string, work: string): Promise<Buffer> {
  const jpeg = join(work, 'IMG_0412.JPG');
  await writeFile(jpeg, await exiftool.extractBinaryTagToBuffer('PreviewImage', raw));
  await exiftool.write(jpeg, {}, { writeArgs: ['-overwrite_original', '-tagsFromFile', raw, '-EXIF:all'] });
  return readFile(jpeg);
}

describe('camera RAW files in downloads', () => {
  let world: DownloadWorld;
  let owner: Awaited<ReturnType<DownloadWorld['stack']['createUser']>>;
  let work: string;
  let batchId: string;
  const uploaded = new Map<string, Buffer>();
  let named: Named[];

  beforeAll(async () => {
    world = await startDownloadWorld('downloads-raw', 'fs');
    owner = await world.stack.createUser();
    work = testDir('downloads-raw-work');
    // Taken somewhere: the location a person may ask to have taken out.
    const cr2 = join(work, 'IMG_0412.CR2');
    await writeFile(cr2, await readFile(join(CAMERA_DIR, 'IMG_0412.CR2')));
    await exiftool.write(
      cr2,
      { GPSLatitude: 48.8583, GPSLatitudeRef: 'N', GPSLongitude: 2.2945, GPSLongitudeRef: 'E' },
      {
        writeArgs: ['-overwrite_original'],
      },
    );
    const files = [
      { name: 'IMG_0412.CR2', bytes: await readFile(cr2), type: 'image/x-canon-cr2' },
      { name: 'IMG_0412.JPG', bytes: await jpegOfTheShot(cr2, work), type: 'image/jpeg' },
      { name: 'dragonfly.dng', bytes: await readFile(join(CAMERA_DIR, 'dragonfly.dng')), type: 'image/x-adobe-dng' },
    ];
    for (const file of files) uploaded.set(file.name, file.bytes);
    ({ batchId } = await world.uploadAnalysed(owner.key, files, { keywords: 'estuary' }));
    const { body } = await world.get(`/api/image/batch/${batchId}`, owner.key);
    named = body!.items as Named[];
  }, 120_000);
  afterAll(() => world?.close());

  const byOriginal = (name: string) => named.find((image) => image.originalFilename === name)!;

  it('names the RAW file and the JPEG of one shot with one stem, each with its own extension', () => {
    const raw = byOriginal('IMG_0412.CR2');
    const jpeg = byOriginal('IMG_0412.JPG');
    expect(raw.filename).toMatch(/\.cr2$/);
    expect(jpeg.filename).toMatch(/\.jpg$/);
    expect(stemOf(raw.filename)).toBe(stemOf(jpeg.filename));
    expect(byOriginal('dragonfly.dng').filename).toMatch(/\.dng$/);
  });

  it('hands out a RAW file’s original bytes, also when asked to embed', async () => {
    const raw = byOriginal('IMG_0412.CR2');
    for (const query of ['', '?embed=true']) {
      const { status, body } = await world.get(`/api/image/${raw.id}/download${query}`, owner.key);
      expect(status).toBe(200);
      const bytes = Buffer.from(await (await fetch(body!.url)).arrayBuffer());
      expect(bytes.equals(uploaded.get('IMG_0412.CR2')!)).toBe(true);
    }
  });

  it('takes the location out of a RAW file when asked, by its link and in the ZIP, keeping the camera and a readable RAW', async () => {
    const raw = byOriginal('IMG_0412.CR2');
    const before = await exiftool.read(join(work, 'IMG_0412.CR2'));
    expect(before.GPSLatitude).toBeDefined();
    const { body: link } = await world.get(`/api/image/${raw.id}/download?strip=location`, owner.key);
    const single = join(work, 'stripped.cr2');
    await writeFile(single, Buffer.from(await (await fetch(link!.url)).arrayBuffer()));
    const { body: zip } = await world.get(`/api/batch/${batchId}/download?strip=location`, owner.key, {
      method: 'POST',
    });
    const dir = await mkdtemp(join(work, 'zip-stripped-'));
    await writeFile(join(dir, 'batch.zip'), Buffer.from(await (await fetch(zip!.url)).arrayBuffer()));
    await run('unzip', ['-q', join(dir, 'batch.zip'), '-d', join(dir, 'out')]);
    for (const path of [single, join(dir, 'out', raw.filename)]) {
      const after = await exiftool.read(path);
      expect(after.GPSLatitude, path).toBeUndefined();
      expect(after.GPSPosition, path).toBeUndefined();
      expect([after.FileType, after.Make, after.Model]).toEqual([before.FileType, before.Make, before.Model]);
    }
  });

  it('puts each RAW file into the ZIP as uploaded, with an XMP sidecar carrying its SEO fields', async () => {
    const { status, body } = await world.get(`/api/batch/${batchId}/download?embed=true`, owner.key, {
      method: 'POST',
    });
    expect(status).toBe(200);
    expect(body!.entries).toBe(3);
    const dir = await mkdtemp(join(work, 'zip-'));
    const path = join(dir, 'batch.zip');
    await writeFile(path, Buffer.from(await (await fetch(body!.url)).arrayBuffer()));
    await run('unzip', ['-t', path]);
    const listed = (await run('unzip', ['-Z1', path])).stdout.trim().split('\n');
    const expected = named.flatMap((image) =>
      /\.(cr2|dng)$/.test(image.filename) ? [image.filename, `${stemOf(image.filename)}.xmp`] : [image.filename],
    );
    expect(listed).toEqual(expected);

    const out = join(dir, 'out');
    await run('unzip', ['-q', path, '-d', out]);
    for (const original of ['IMG_0412.CR2', 'dragonfly.dng']) {
      const image = byOriginal(original);
      const delivered = join(out, image.filename);
      expect((await readFile(delivered)).equals(uploaded.get(original)!)).toBe(true);
      const sidecar = await exiftool.read(join(out, `${stemOf(image.filename)}.xmp`));
      const words = stemOf(image.filename).replaceAll('-', ' ');
      expect(sidecar.Title).toBe(words[0]!.toUpperCase() + words.slice(1));
      expect([sidecar.Subject].flat()).toContain('estuary');
      const source = original === 'IMG_0412.CR2' ? join(work, original) : join(CAMERA_DIR, original);
      const [before, after] = await Promise.all([exiftool.read(source), exiftool.read(delivered)]);
      expect([after.Make, after.Model, after.DateTimeOriginal?.toString()]).toEqual([
        before.Make,
        before.Model,
        before.DateTimeOriginal?.toString(),
      ]);
    }
    // The JPEG of the shot is rewritten with its fields, as any JPEG.
    const jpeg = await exiftool.read(join(out, byOriginal('IMG_0412.JPG').filename));
    expect([jpeg.Subject].flat()).toContain('estuary');
  });
});
