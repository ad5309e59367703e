import { createReadStream } from 'node:fs';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { testDir } from '@renamer/runtime/testing';
import { ExifTool } from 'exiftool-vendored';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetadataEmbedder, MetadataEmbedError, type SeoFields, seoFieldsFor } from '../src';

// The reader is a separate exiftool: what it reads is what any other tool would find in the delivered file.
const reader = new ExifTool({ useMWG: false });
const dir = testDir('delivery-embed');
const tmpDir = join(dir, 'tmp');
const embedder = createMetadataEmbedder({ tmpDir });

const fields: SeoFields = seoFieldsFor({
  filename: 'red-ceramic-cups-łódź.jpg',
  altText: 'Three red ceramic cups on a wooden table in Łódź',
  tags: ['ceramics', 'łódź', 'Harbour', 'ceramics'],
});

/** Tags that embedding writes or that describe the file rather than the picture; everything else must not change. */
const WRITTEN = new Set([
  'XMP-dc:Title',
  'XMP-dc:Description',
  'XMP-iptcCore:AltTextAccessibility',
  'XMP-dc:Subject',
  'IPTC:Keywords',
  'IPTC:CodedCharacterSet',
  'IPTC:EnvelopeRecordVersion',
  'IPTC:ApplicationRecordVersion',
  'File:CurrentIPTCDigest',
  'XMP-x:XMPToolkit',
]);

async function photoWithMetadata(format: 'jpeg' | 'png' | 'webp'): Promise<string> {
  const file = join(dir, `original.${format}`);
  await sharp({ create: { width: 32, height: 24, channels: 3, background: '#b22' } })
    .withIccProfile('p3')
    .withExif({
      IFD0: { Make: 'NIKON CORPORATION', Model: 'NIKON Z 6', ImageDescription: 'NIKON DIGITAL CAMERA' },
      IFD2: { DateTimeOriginal: '2024:05:01 10:20:30' },
    })
    .toFormat(format)
    .toFile(file);
  const photographers: Record<string, unknown> = {
    GPSLatitude: 51.7592,
    GPSLongitude: 19.456,
    'XMP-dc:Creator': 'Jörg Fotograf',
    'XMP-dc:Subject': ['harbour', 'analogue', '1.50'],
  };
  // Written as a camera or an old editor would: IPTC in Latin-1, without a CodedCharacterSet.
  if (format !== 'webp')
    Object.assign(photographers, { 'IPTC:Keywords': ['Kürbis', 'harbour', 'Analogue'], 'IPTC:By-line': 'Jörg' });
  await reader.write(file, photographers as never, { writeArgs: ['-overwrite_original'] });
  return file;
}

async function tagsOf(file: string): Promise<Record<string, unknown>> {
  const {
    SourceFile: _,
    errors: __,
    warnings: ___,
    ...tags
  } = await reader.readRaw(file, {
    // Every value quoted, as written: a keyword "1.50" is not the number 1.5.
    readArgs: ['-G1', '-a', '-api', 'StructFormat=JSONQ'],
  });
  for (const name of Object.keys(tags)) if (name.startsWith('System:')) delete (tags as Record<string, unknown>)[name];
  return tags;
}

async function embedToFile(original: string, format: string): Promise<string> {
  const { stream, size } = await embedder.embed(createReadStream(original), fields, format);
  const bytes = await buffer(stream);
  expect(bytes.length).toBe(size);
  const delivered = join(dir, `delivered.${format}`);
  await writeFile(delivered, bytes);
  return delivered;
}

async function tmpDirIsEmpty(): Promise<void> {
  await expect.poll(() => readdir(tmpDir)).toEqual([]);
}

beforeAll(() => {
  expect(fields.keywords).toEqual(['ceramics', 'łódź', 'Harbour']);
});

afterAll(async () => {
  await Promise.all([embedder.close(), reader.end()]);
});

describe.each(['jpeg', 'png'] as const)('embedding into a %s with EXIF, IPTC and XMP', (format) => {
  let original: Record<string, unknown>;
  let delivered: Record<string, unknown>;

  beforeAll(async () => {
    const file = await photoWithMetadata(format);
    original = await tagsOf(file);
    delivered = await tagsOf(await embedToFile(file, format === 'jpeg' ? 'jpg' : format));
  });

  it('writes the title, description and alt text', () => {
    expect(delivered['XMP-dc:Title']).toBe('Red ceramic cups łódź');
    expect(delivered['XMP-dc:Description']).toBe('Three red ceramic cups on a wooden table in Łódź');
    expect(delivered['XMP-iptcCore:AltTextAccessibility']).toBe('Three red ceramic cups on a wooden table in Łódź');
  });

  it("adds the tags to the photographer's keywords, in UTF-8, keeping every one of theirs as they wrote it", () => {
    expect(delivered['IPTC:CodedCharacterSet']).toBe('UTF8');
    expect(delivered['IPTC:Keywords']).toEqual([
      'harbour',
      'analogue',
      '1.50',
      'Kürbis',
      'Analogue',
      'ceramics',
      'łódź',
    ]);
    expect(delivered['XMP-dc:Subject']).toEqual([
      'harbour',
      'analogue',
      '1.50',
      'Kürbis',
      'Analogue',
      'ceramics',
      'łódź',
    ]);
  });

  it('leaves every other tag as it was: EXIF camera, date, GPS, ICC profile, XMP, Latin-1 IPTC', () => {
    expect(original['IFD0:Make']).toBe('NIKON CORPORATION');
    expect(original['ExifIFD:DateTimeOriginal']).toBe('2024:05:01 10:20:30');
    expect(original['GPS:GPSLatitude']).toBeDefined();
    expect(original['ICC_Profile:ProfileDescription']).toBeDefined();
    const untouched = Object.fromEntries(Object.entries(original).filter(([name]) => !WRITTEN.has(name)));
    expect(Object.keys(untouched).length).toBeGreaterThan(30);
    for (const [name, value] of Object.entries(untouched)) {
      if (name.startsWith('File:')) continue; // size, dates and offsets of the copy
      expect(delivered[name], name).toEqual(value);
    }
    expect(delivered['IPTC:By-line']).toBe('Jörg');
    expect(delivered['XMP-dc:Creator']).toBe('Jörg Fotograf');
  });

  it('leaves no temp file and no _original backup', async () => {
    await tmpDirIsEmpty();
  });
});

describe('embedding into a WebP (XMP only: WebP holds no IPTC)', () => {
  it('writes the fields into XMP and keeps EXIF', async () => {
    const file = await photoWithMetadata('webp');
    const original = await tagsOf(file);
    const delivered = await tagsOf(await embedToFile(file, 'webp'));
    expect(delivered['XMP-dc:Title']).toBe('Red ceramic cups łódź');
    expect(delivered['XMP-iptcCore:AltTextAccessibility']).toBe('Three red ceramic cups on a wooden table in Łódź');
    expect(delivered['XMP-dc:Subject']).toEqual(['harbour', 'analogue', '1.50', 'ceramics', 'łódź']);
    for (const name of ['IFD0:Make', 'IFD0:Model', 'IFD0:ImageDescription', 'ExifIFD:DateTimeOriginal']) {
      expect(delivered[name], name).toEqual(original[name]);
    }
    expect(delivered['GPS:GPSLatitude']).toEqual(original['GPS:GPSLatitude']);
    expect(delivered['GPS:GPSLongitude']).toEqual(original['GPS:GPSLongitude']);
    await tmpDirIsEmpty();
  });
});

describe.each([
  ['tiff', true],
  ['gif', false],
  ['avif', false],
] as const)('embedding into a %s', (format, holdsIptc) => {
  it(`writes the title, alt text and keywords${holdsIptc ? ', IPTC too' : ' (XMP only)'}`, async () => {
    const file = join(dir, `plain.${format}`);
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#2b2' } })
      .toFormat(format)
      .toFile(file);
    const delivered = await tagsOf(await embedToFile(file, format));
    expect(delivered['XMP-dc:Title']).toBe('Red ceramic cups łódź');
    expect(delivered['XMP-iptcCore:AltTextAccessibility']).toBe('Three red ceramic cups on a wooden table in Łódź');
    expect(delivered['XMP-dc:Subject']).toEqual(['ceramics', 'łódź', 'Harbour']);
    expect(delivered['IPTC:Keywords']).toEqual(holdsIptc ? ['ceramics', 'łódź', 'Harbour'] : undefined);
    await tmpDirIsEmpty();
  });
});

describe('the temp file', () => {
  it('is there, alone, while the stream is open, and goes when the stream is destroyed unread', async () => {
    const file = await photoWithMetadata('jpeg');
    const { stream } = await embedder.embed(createReadStream(file), fields, 'jpg');
    expect(await readdir(tmpDir)).toHaveLength(1);
    stream.destroy();
    await tmpDirIsEmpty();
  });

  it('goes when the source fails halfway, and the error reaches the caller', async () => {
    const failing = Readable.from(
      (async function* () {
        yield Buffer.alloc(1024);
        throw new Error('object store went away');
      })(),
    );
    await expect(embedder.embed(failing, fields, 'jpg')).rejects.toThrow('object store went away');
    await tmpDirIsEmpty();
  });

  it('is never left behind by a source that fails before its first byte', async () => {
    // Failing as soon as it is read, while the file is being opened: the file must not appear after its removal.
    for (let round = 0; round < 200; round++) {
      const failing = new Readable({
        read() {
          this.destroy(new Error('object store went away'));
        },
      });
      await expect(embedder.embed(failing, fields, 'jpg')).rejects.toThrow('object store went away');
    }
    await tmpDirIsEmpty();
  });

  it('goes when exiftool cannot write the file', async () => {
    const notAJpeg = Readable.from([Buffer.from('these bytes are not an image at all')]);
    await expect(embedder.embed(notAJpeg, fields, 'jpg')).rejects.toBeInstanceOf(MetadataEmbedError);
    await tmpDirIsEmpty();
  });
});

describe('a closed embedder', () => {
  it('refuses to embed and closes the source it was given', async () => {
    const closed = createMetadataEmbedder({ tmpDir });
    await closed.close();
    const source = createReadStream(await photoWithMetadata('jpeg'));
    await expect(closed.embed(source, fields, 'jpg')).rejects.toThrow('closed');
    expect(source.destroyed).toBe(true);
    await tmpDirIsEmpty();
  });
});

describe('a format exiftool cannot write', () => {
  it('comes back byte for byte', async () => {
    const bmp = join(dir, 'picture.bmp');
    await copyFile(await photoWithMetadata('png'), bmp);
    const { stream, size } = await embedder.embed(createReadStream(bmp), fields, 'bmp');
    const bytes = await buffer(stream);
    expect(bytes.equals(await readFile(bmp))).toBe(true);
    expect(size).toBe(bytes.length);
    await tmpDirIsEmpty();
  });
});

describe('an XMP sidecar', () => {
  it('holds the title, description, alt text and keywords, and reads as XMP in any tool', async () => {
    const { stream, size } = await embedder.sidecar(fields);
    const bytes = await buffer(stream);
    expect(bytes.length).toBe(size);
    expect(bytes.toString('utf8')).toContain('<x:xmpmeta');
    const file = join(dir, 'sidecar.xmp');
    await writeFile(file, bytes);
    const tags = await tagsOf(file);
    expect(tags).toMatchObject({
      'XMP-dc:Title': fields.title,
      'XMP-dc:Description': fields.description,
      'XMP-iptcCore:AltTextAccessibility': fields.altText,
      'XMP-dc:Subject': ['ceramics', 'łódź', 'Harbour'],
    });
    await tmpDirIsEmpty();
  });

  it('leaves no temp file when the embedder is closed', async () => {
    const closed = createMetadataEmbedder({ tmpDir });
    await closed.close();
    await expect(closed.sidecar(fields)).rejects.toThrow('closed');
    await tmpDirIsEmpty();
  });
});
