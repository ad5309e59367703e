import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExifTool, type WriteTags } from 'exiftool-vendored';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PhotoMetadata, readPhotoMetadata } from '../src/metadata';

// One long-lived ExifTool, as in a worker: the reader under test and the writer of the test files share it.
const exiftool = new ExifTool({ useMWG: false });
let dir: string;
let plainJpeg: string;
let fileCount = 0;

/** EXIF as a camera writes it (sharp writes IFD0 and the Exif IFD as `IFD2`). */
interface CameraExif {
  IFD0?: Record<string, string>;
  IFD2?: Record<string, string>;
}

/** A copy of the plain JPEG with the camera's EXIF, then the editors' tags written by exiftool, group-qualified. */
async function photoWith(tags: Record<string, unknown>, camera: CameraExif = {}): Promise<string> {
  const file = join(dir, `photo-${++fileCount}.jpg`);
  if (camera.IFD0 || camera.IFD2) await sharp(plainJpeg).withExif(camera).jpeg().toFile(file);
  else await copyFile(plainJpeg, file);
  if (Object.keys(tags).length > 0) {
    await exiftool.write(file, tags as WriteTags, { writeArgs: ['-overwrite_original'] });
  }
  return file;
}

const read = (file: string) => readPhotoMetadata(exiftool, file);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vision-metadata-'));
  plainJpeg = join(dir, 'plain.jpg');
  // Pixels do not matter to this step; the file is a real baseline JPEG without any metadata.
  const noise = { type: 'gaussian', mean: 128, sigma: 40 } as const;
  await sharp({ create: { width: 320, height: 240, channels: 3, background: '#777', noise } })
    .jpeg({ quality: 80 })
    .toFile(plainJpeg);
});

afterAll(async () => {
  await exiftool.end();
  await rm(dir, { recursive: true, force: true });
});

describe('readPhotoMetadata', () => {
  it('reads the photographer’s title, description and keywords, the camera, the date and the place', async () => {
    const file = await photoWith(
      {
        'XMP-dc:Title': 'Tram 28 climbing to Alfama',
        'XMP-dc:Description': 'A yellow tram on a steep street at dusk.',
        'XMP-dc:Subject': ['tram', 'yellow', '1.50'],
        'IPTC:Keywords': ['Tram', 'Lisboa', 'true', '007'],
        'IPTC:CodedCharacterSet': 'UTF8',
        'ExifIFD:LensModel': 'M.Zuiko Digital 14-42mm F3.5-5.6 II R',
        'GPS:GPSLatitude': 38.7139,
        'GPS:GPSLatitudeRef': 'N',
        'GPS:GPSLongitude': 9.1334,
        'GPS:GPSLongitudeRef': 'W',
      },
      {
        IFD0: { Make: 'OLYMPUS IMAGING CORP.', Model: 'E-M10', ImageDescription: 'OLYMPUS DIGITAL CAMERA         ' },
        IFD2: { DateTimeOriginal: '2023:06:14 18:22:05' },
      },
    );
    const meta = await read(file);
    expect(meta).toEqual<PhotoMetadata>({
      title: 'Tram 28 climbing to Alfama',
      description: 'A yellow tram on a steep street at dusk.',
      keywords: ['tram', 'yellow', '1.50', 'Lisboa', 'true', '007'],
      camera: 'OLYMPUS E-M10',
      lens: 'M.Zuiko Digital 14-42mm F3.5-5.6 II R',
      takenAt: '2023-06-14T18:22:05',
      place: { city: 'Lisbon', country: 'Portugal' },
    });
    // Only the place is kept: no coordinate in any form.
    expect(JSON.stringify(meta)).not.toMatch(/38[.,]7|9[.,]13/);
  });

  it('gives an empty result, without throwing, for a file without metadata', async () => {
    expect(await read(plainJpeg)).toEqual({ keywords: [] });
  });

  it('gives an empty result for a file exiftool cannot parse, and rejects for a file that is not there', async () => {
    const garbage = join(dir, 'not-a-photo.jpg');
    await writeFile(garbage, 'not a JPEG at all');
    expect(await read(garbage)).toEqual({ keywords: [] });
    await expect(read(join(dir, 'missing.jpg'))).rejects.toThrow(/not found/i);
  });

  it('keeps keywords as written: numbers, booleans and leading zeros stay strings', async () => {
    const file = await photoWith({ 'XMP-dc:Subject': ['1.50', '2024', 'true', '007', '1e3'] });
    expect((await read(file)).keywords).toEqual(['1.50', '2024', 'true', '007', '1e3']);
  });

  it('splits a keyword field holding a list and drops repeats across XMP and IPTC', async () => {
    const file = await photoWith({
      'XMP-dc:Subject': ['Sunset', 'beach'],
      'IPTC:Keywords': ['sunset, Beach; Portugal', '1,50'],
    });
    expect((await read(file)).keywords).toEqual(['Sunset', 'beach', 'Portugal', '1,50']);
  });

  it('reads IPTC in UTF-8 when the file declares it', async () => {
    const file = await photoWith({ 'IPTC:ObjectName': 'Łódź old town', 'IPTC:CodedCharacterSet': 'UTF8' });
    expect((await read(file)).title).toBe('Łódź old town');
  });

  it('falls back to the next field when the first holds only boilerplate', async () => {
    const file = await photoWith({
      'XMP-dc:Title': 'Untitled',
      'IPTC:ObjectName': 'Fishing boats at dawn',
      'XMP-dc:Description': '© 2023 Jane Doe. All rights reserved.',
      'IPTC:Caption-Abstract': 'Boats pulled up on the sand at Nazaré.',
    });
    const meta = await read(file);
    expect(meta.title).toBe('Fishing boats at dawn');
    expect(meta.description).toBe('Boats pulled up on the sand at Nazaré.');
  });

  it('leaves out a description that only repeats the title', async () => {
    const file = await photoWith({ 'XMP-dc:Title': 'Harbour at night', 'XMP-dc:Description': 'harbour at night' });
    expect(await read(file)).toEqual({ title: 'Harbour at night', keywords: [] });
  });

  describe('drops boilerplate of each family', () => {
    it.each<[string, Record<string, unknown>, CameraExif]>([
      ['camera defaults in ImageDescription: Olympus', {}, { IFD0: { ImageDescription: 'OLYMPUS DIGITAL CAMERA' } }],
      ['camera defaults in ImageDescription: Sony', {}, { IFD0: { ImageDescription: 'SONY DSC' } }],
      [
        'camera defaults in ImageDescription: Konica Minolta',
        {},
        { IFD0: { ImageDescription: 'KONICA MINOLTA DIGITAL CAMERA' } },
      ],
      ['camera defaults in ImageDescription: Samsung', {}, { IFD0: { ImageDescription: 'SAMSUNG' } }],
      ['camera defaults in ImageDescription: LG', {}, { IFD0: { ImageDescription: 'LG Electronics' } }],
      ['camera defaults in ImageDescription: DCIM', {}, { IFD0: { ImageDescription: 'DCIM' } }],
      ['blank ImageDescription', {}, { IFD0: { ImageDescription: '            ' } }],
      ['exposure settings', { 'XMP-dc:Description': '14-42mm f/3.5 1/250s ISO 200' }, {}],
      ['a lang-alt attribute as a value', { 'XMP-dc:Title': 'x-default', 'XMP-dc:Description': 'x-default' }, {}],
      [
        'placeholders',
        {
          'XMP-dc:Title': 'Default',
          'IPTC:ObjectName': 'Picasa',
          'XMP-photoshop:Headline': 'Screenshot',
          'XMP-dc:Subject': ['Untitled'],
        },
        {},
      ],
      [
        'licence and copyright',
        {
          'XMP-dc:Title': 'Copyright 2021 Jane Doe',
          'XMP-dc:Description': 'All rights reserved',
          'XMP-dc:Subject': ['CC BY-SA 4.0', '©Jane Doe', 'Licensed under CC0'],
        },
        {},
      ],
      [
        'links and e-mail addresses',
        {
          'XMP-dc:Title': 'https://janedoe.example/photos',
          'XMP-dc:Description': 'jane@example.com',
          'XMP-dc:Subject': ['www.janedoe.photo'],
        },
        {},
      ],
      [
        'values equal to the camera make or model',
        { 'XMP-dc:Title': 'Canon EOS 70D', 'XMP-dc:Subject': ['Canon', 'EOS 70D'] },
        { IFD0: { Make: 'Canon', Model: 'Canon EOS 70D', ImageDescription: 'CANON EOS 70D' } },
      ],
    ])('%s', async (_, tags, camera) => {
      const meta = await read(await photoWith(tags, camera));
      expect(meta.title).toBeUndefined();
      expect(meta.description).toBeUndefined();
      expect(meta.keywords).toEqual([]);
    });

    it('keeps the photographer’s sentences beside boilerplate in one value', async () => {
      const file = await photoWith({
        'XMP-dc:Description': 'lang="x-default" Sunset over the Tagus. All rights reserved. Contact: jane@example.com',
      });
      expect((await read(file)).description).toBe('Sunset over the Tagus.');
    });
  });

  describe('date taken', () => {
    it('falls back to CreateDate when the camera’s clock was unset', async () => {
      const file = await photoWith(
        {},
        { IFD2: { DateTimeOriginal: '0000:00:00 00:00:00', DateTimeDigitized: '2021:03:02 09:15:00' } },
      );
      expect((await read(file)).takenAt).toBe('2021-03-02T09:15:00');
    });

    it('reads a date without a time from XMP', async () => {
      const file = await photoWith({ 'XMP-photoshop:DateCreated': '2019:12:01' });
      expect((await read(file)).takenAt).toBe('2019-12-01');
    });
  });

  describe('place', () => {
    it('names no place for GPS in the middle of the ocean', async () => {
      const file = await photoWith({
        'GPS:GPSLatitude': 30,
        'GPS:GPSLatitudeRef': 'N',
        'GPS:GPSLongitude': 40,
        'GPS:GPSLongitudeRef': 'W',
      });
      expect((await read(file)).place).toBeUndefined();
    });

    it('applies the southern and eastern references', async () => {
      const file = await photoWith({
        'GPS:GPSLatitude': 33.8568,
        'GPS:GPSLatitudeRef': 'S',
        'GPS:GPSLongitude': 151.2153,
        'GPS:GPSLongitudeRef': 'E',
      });
      expect((await read(file)).place).toEqual({ city: 'Sydney', country: 'Australia' });
    });

    it('names no place without GPS', async () => {
      const file = await photoWith({ 'XMP-dc:Title': 'Harbour at night' });
      expect((await read(file)).place).toBeUndefined();
    });
  });

  it('camera name says the make once', async () => {
    const cases: [string, string, string][] = [
      ['NIKON CORPORATION', 'NIKON D750', 'NIKON D750'],
      ['Apple', 'iPhone 12', 'Apple iPhone 12'],
      ['LG Electronics', 'LG-H870', 'LG-H870'],
      ['RICOH IMAGING COMPANY, LTD.', 'PENTAX K-1', 'RICOH PENTAX K-1'],
    ];
    for (const [Make, Model, camera] of cases) {
      expect((await read(await photoWith({}, { IFD0: { Make, Model } }))).camera).toBe(camera);
    }
  });
});
