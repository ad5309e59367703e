import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDir } from '@renamer/runtime/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DownloadWorld, run, startDownloadWorld } from './downloads-world';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const fixture = (path: string) => readFile(join(FIXTURES, path));

interface Upload {
  name: string;
  bytes: Buffer;
  type: string;
  format: string;
}

/** One file of every accepted kind, each a distinct picture made by a real encoder or taken by a real camera. */
async function everyFormat(): Promise<Upload[]> {
  const photo = (name: string) => sharp(join(FIXTURES, 'photos', name)).resize({ width: 640 });
  const file = async (name: string, type: string, format: string, bytes: Promise<Buffer>) => ({
    name,
    type,
    format,
    bytes: await bytes,
  });
  return Promise.all([
    file('IMG_2001.JPG', 'image/jpeg', 'jpeg', photo('kite.jpg').jpeg().withMetadata({ orientation: 6 }).toBuffer()),
    file('cmyk.jpg', 'image/jpeg', 'jpeg', photo('colorful-cups.jpg').toColourspace('cmyk').jpeg().toBuffer()),
    file('deep.png', 'image/png', 'png', photo('sunset.jpg').toColourspace('rgb16').png().toBuffer()),
    file('leaf.webp', 'image/webp', 'webp', photo('fallen-leaf.jpg').webp().toBuffer()),
    file('wine.gif', 'image/gif', 'gif', photo('wine.jpg').gif().toBuffer()),
    file('path.avif', 'image/avif', 'avif', photo('path.jpg').avif().toBuffer()),
    file('scan.tif', 'image/tiff', 'tiff', photo('seeding.jpg').tiff().toBuffer()),
    file('IMG_4021.HEIC', 'image/heic', 'heic', fixture('camera/colorful-cups.heic')),
    file('PXL_20260101.MP.jpg', 'image/jpeg', 'jpeg', fixture('motion/motion-photo.MP.jpg')),
    file('dragonfly.dng', 'image/x-adobe-dng', 'dng', fixture('camera/dragonfly.dng')),
    file('IMG_0412.CR2', 'image/x-canon-cr2', 'cr2', fixture('camera/IMG_0412.CR2')),
    file('P1000207.RW2', 'image/x-panasonic-rw2', 'rw2', fixture('camera/P1000207.RW2')),
  ]);
}

describe('a batch mixing every format', () => {
  let world: DownloadWorld;
  let key: string;
  let files: Upload[];
  let batch: Awaited<ReturnType<DownloadWorld['uploadAnalysed']>>;

  beforeAll(async () => {
    world = await startDownloadWorld('every-format', 's3');
    ({ key } = await world.stack.createUser());
    files = await everyFormat();
    batch = await world.uploadAnalysed(key, files, { keywords: 'format test' });
  }, 180_000);
  afterAll(() => world?.close());

  it('analyses every file to ready with a name in its own format', async () => {
    for (const [index, { imageId }] of batch.images.entries()) {
      const { body: image } = await world.get(`/api/image/${imageId}`, key);
      expect(image, files[index]!.name).toMatchObject({ status: 'ready', metadata: { format: files[index]!.format } });
      expect(image!.filename).toMatch(/^[a-z0-9-]+\.[a-z0-9]+$/);
    }
  });

  it('serves an upright WebP preview of at most 512 px for every file', async () => {
    for (const [index, { imageId }] of batch.images.entries()) {
      const response = await fetch(`${world.api.url}/api/image/${imageId}/preview`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.status, files[index]!.name).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      const preview = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(Math.max(preview.width!, preview.height!)).toBeLessThanOrEqual(512);
      expect(preview.orientation ?? 1).toBe(1);
    }
    // The photo stored landscape with orientation 6 is previewed portrait.
    const rotated = await fetch(`${world.api.url}/api/image/${batch.images[0]!.imageId}/preview`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const { width, height } = await sharp(Buffer.from(await rotated.arrayBuffer())).metadata();
    expect(height).toBeGreaterThan(width!);
  });

  it('hands every file back byte for byte, one by one and in the ZIP', async () => {
    for (const [index, { imageId }] of batch.images.entries()) {
      const { body } = await world.get(`/api/image/${imageId}/download`, key);
      const bytes = Buffer.from(await (await fetch(body!.url)).arrayBuffer());
      expect(bytes.equals(files[index]!.bytes), files[index]!.name).toBe(true);
    }
    const { body } = await world.get(`/api/batch/${batch.batchId}/download`, key, { method: 'POST' });
    expect(body!.entries).toBe(files.length);
    const dir = await mkdtemp(join(testDir('every-format-zip'), 'zip-'));
    const path = join(dir, 'batch.zip');
    await writeFile(path, Buffer.from(await (await fetch(body!.url)).arrayBuffer()));
    await run('unzip', ['-q', path, '-d', join(dir, 'out')]);
    for (const [index, { imageId }] of batch.images.entries()) {
      const { body: image } = await world.get(`/api/image/${imageId}`, key);
      const delivered = await readFile(join(dir, 'out', image!.filename as string));
      expect(delivered.equals(files[index]!.bytes), files[index]!.name).toBe(true);
    }
  });
});
