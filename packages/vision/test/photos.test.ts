import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ExifTool } from 'exiftool-vendored';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../src/decoded-image';
import {
  type FixturePhoto,
  judgeFilenameWords,
  judgeSubjects,
  judgeWords,
  metadataPhoto,
  strippedCopies,
  strippedCopy,
  tuningPhotos,
  unseenPhotos,
} from '../src/testing';
import { TUNING_DIR, UNSEEN_DIR } from '../src/testing/fixture-photos';

const MAX_EDGE_PX = 2048;
const MAX_TOTAL_BYTES = 10 * 1024 * 1024;
/** exiftool's group names (with -G1) of the metadata a stripped copy must not carry. */
const METADATA_GROUP = /^(IFD\d|ExifIFD|GPS|InteropIFD|MakerNotes|XMP|IPTC|Photoshop|ICC|JFIF)/;

// A reader of its own: what it finds is what any other tool would find in the files.
const reader = new ExifTool({ useMWG: false });
let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'photos-test-'));
});

afterAll(async () => {
  await reader.end();
  await rm(workDir, { recursive: true, force: true });
});

/** Group-qualified names of every metadata tag exiftool finds in the file. */
async function metadataTags(path: string): Promise<string[]> {
  const tags = await reader.readRaw(path, { readArgs: ['-G1', '-a'] });
  return Object.keys(tags).filter((name) => METADATA_GROUP.test(name.split(':')[0]!));
}

describe.each([
  { set: 'tuning', dir: TUNING_DIR, load: tuningPhotos },
  { set: 'held-out', dir: UNSEEN_DIR, load: unseenPhotos },
])('the $set manifest', ({ dir, load }) => {
  let photos: FixturePhoto[];
  beforeAll(async () => {
    photos = await load();
  });

  it('lists every photograph in its folder, once, and nothing else', async () => {
    const onDisk = (await readdir(dir)).filter((file) => file !== 'photos.json' && file !== 'README.md');
    const listed = photos.map((photo) => photo.file);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(onDisk.sort());
    expect(photos.every((photo) => photo.path === join(dir, photo.file))).toBe(true);
  });

  it('holds JPEGs that decode, at most 2048 px on the long edge', async () => {
    for (const photo of photos) {
      const { format, width = 0, height = 0 } = await sharp(photo.path).metadata();
      expect({ file: photo.file, format }).toEqual({ file: photo.file, format: 'jpeg' });
      expect(Math.max(width, height)).toBeLessThanOrEqual(MAX_EDGE_PX);
      const decoded = await decodeImage(photo.path);
      expect(decoded.pixels.length).toBe(decoded.width * decoded.height * 3);
      expect(decoded.width).toBeGreaterThan(0);
    }
  });

  it('says for each where it comes from, its licence and what it shows', () => {
    for (const photo of photos) {
      expect(photo.licence.trim(), photo.file).not.toBe('');
      expect(photo.author.trim(), photo.file).not.toBe('');
      expect(photo.upstreamFile, photo.file).toMatch(/^\/usr\//);
      expect(photo.shows.length, photo.file).toBeGreaterThan(0);
      expect(photo.description.trim(), photo.file).not.toBe('');
      for (const word of [...photo.shows, ...photo.acceptable]) {
        expect(word, photo.file).toBe(word.trim().toLowerCase());
      }
      expect(
        photo.shows.filter((word) => photo.acceptable.includes(word)),
        photo.file,
      ).toEqual([]);
      expect(photo.subjects.length, photo.file).toBeGreaterThan(0);
      expect(
        photo.subjects.filter((word) => !photo.shows.includes(word)),
        photo.file,
      ).toEqual([]);
    }
  });

  it('judges its own "shows" words correct', () => {
    for (const photo of photos) {
      expect(judgeWords(photo, photo.shows).correct, photo.file).toEqual(photo.shows);
    }
  });
});

describe('the two sets together', () => {
  it('come from different packages, so the held-out set is unseen', async () => {
    const tuningPackages = new Set((await tuningPhotos()).map((photo) => photo.package));
    const shared = (await unseenPhotos()).filter((photo) => tuningPackages.has(photo.package));
    expect(shared.map((photo) => photo.file)).toEqual([]);
  });

  it('keep the repository small', async () => {
    const photos = [...(await tuningPhotos()), ...(await unseenPhotos())];
    const sizes = await Promise.all(photos.map(async (photo) => (await stat(photo.path)).size));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(MAX_TOTAL_BYTES);
  });
});

describe('strippedCopy', () => {
  it('removes every EXIF, XMP, IPTC and ICC tag and leaves the pixels as they were', async () => {
    const kite = (await tuningPhotos()).find((photo) => photo.file === 'kite.jpg')!;
    const original = await metadataTags(kite.path);
    expect(original).toContain('IFD0:ImageDescription');
    expect(original.some((name) => name.startsWith('XMP'))).toBe(true);

    const copy = await strippedCopy(kite, workDir);

    expect(await metadataTags(copy)).toEqual([]);
    const meta = await sharp(copy).metadata();
    expect([meta.exif, meta.xmp, meta.iptc, meta.icc]).toEqual([undefined, undefined, undefined, undefined]);
    const [before, after] = await Promise.all([sharp(kite.path).raw().toBuffer(), sharp(copy).raw().toBuffer()]);
    expect(after.equals(before)).toBe(true);
  });

  it('names the copy so that no word of the fixture name reaches it', async () => {
    const [friends] = (await tuningPhotos()).filter((photo) => photo.file === 'friends.jpg');
    const copy = await strippedCopy(friends!, workDir);
    expect(basename(copy)).toMatch(/^[0-9a-f]{32}\.jpg$/);
  });

  it('strips every photograph of both sets through one ExifTool', async () => {
    const photos = [...(await tuningPhotos()), ...(await unseenPhotos())];
    const copies = await strippedCopies(photos, join(workDir, 'all'));
    expect(new Set(copies).size).toBe(photos.length);
    for (const copy of copies) expect(await metadataTags(copy)).toEqual([]);
  });
});

describe('metadataPhoto', () => {
  it("writes a photographer's words, a place and the camera's boilerplate onto a fixture's pixels", async () => {
    const written = await metadataPhoto(join(workDir, 'metadata'));
    const tags = (await reader.readRaw(written.path, { readArgs: ['-G1', '-a', '-n'] })) as Record<string, unknown>;

    expect(tags['XMP-dc:Title']).toBe(written.title);
    expect(tags['XMP-dc:Description']).toBe(written.description);
    expect(tags['XMP-dc:Subject']).toEqual(written.keywords);
    expect(tags['IPTC:Keywords']).toEqual(written.keywords);
    expect(tags['IPTC:ObjectName']).toBe(written.title);
    expect(tags['IFD0:ImageDescription']).toBe('OLYMPUS DIGITAL CAMERA         ');
    expect(written.boilerplate).toContain(tags['IFD0:ImageDescription']);
    expect(tags['IFD0:Make']).toBe(written.camera.make);
    expect(tags['ExifIFD:DateTimeOriginal']).toBe(written.dateTaken);
    expect(tags['Composite:GPSLatitude']).toBeCloseTo(written.gps.latitude, 4);
    expect(tags['Composite:GPSLongitude']).toBeCloseTo(written.gps.longitude, 4);
    expect(written.boilerplate).toContain(tags['IFD0:Copyright']);
    expect(written.boilerplate).toContain(tags['File:Comment']);
    expect(written.boilerplate).toContain(tags['XMP-xmpRights:UsageTerms']);
  });

  it("holds only the photographer's words that are true of the picture", async () => {
    const written = await metadataPhoto(join(workDir, 'metadata-words'));
    const words = [...written.title.split(' '), ...written.description.split(' '), ...written.keywords];
    expect(judgeWords(written.photo, words).wrong).toEqual([]);
    expect(judgeWords(written.photo, [written.gps.city, 'portugal']).neutral).toEqual(['Lisbon', 'portugal']);
    const [original, copy] = await Promise.all([
      sharp(written.photo.path).raw().toBuffer(),
      sharp(written.path).raw().toBuffer(),
    ]);
    expect(copy.equals(original)).toBe(true);
  });
});

describe('judgeWords', () => {
  const photo = {
    shows: ['cup', 'coffee cup', 'red', 'leaf', 'berry', 'forget-me-not'],
    acceptable: ['table', 'suspension bridge', 'person'],
  };

  it('counts words in "shows" correct, in "acceptable" neutral and any other wrong', () => {
    expect(judgeWords(photo, ['cup', 'table', 'dog'])).toEqual({
      correct: ['cup'],
      neutral: ['table'],
      wrong: ['dog'],
    });
  });

  it('takes plurals, case, hyphens and underscores as the same word', () => {
    expect(judgeWords(photo, ['Cups', 'leaves', 'berries', 'people', 'forget me not', 'coffee_cup']).wrong).toEqual([]);
  });

  it('judges a phrase wrong when one of its words is wrong', () => {
    expect(judgeWords(photo, ['red ceramic cup', 'red cup on table', 'suspension bridge', 'suspension cup'])).toEqual({
      correct: ['red cup on table'],
      neutral: ['suspension bridge'],
      wrong: ['red ceramic cup', 'suspension cup'],
    });
  });

  it("judges a filename's consecutive words that spell a listed phrase as that phrase", () => {
    expect(judgeFilenameWords(photo, ['suspension', 'bridge', 'red'])).toEqual({
      correct: ['red'],
      neutral: ['suspension bridge'],
      wrong: [],
    });
    expect(judgeFilenameWords(photo, ['bridge', 'suspension']).wrong).toEqual(['bridge', 'suspension']);
  });

  it('leaves out entries with no word to judge', () => {
    expect(judgeWords(photo, ['2', 'on the', ''])).toEqual({ correct: [], neutral: [], wrong: [] });
  });
});

describe('judgeSubjects', () => {
  const photo = {
    shows: ['dog', 'spaniel', 'window', 'white', 'golden hour', 'close-up'],
    subjects: ['dog', 'spaniel'],
    acceptable: ['house', 'wood'],
  };

  it('tells a name of the main subject from one of a side detail, and from colours and light alone', () => {
    expect(judgeSubjects(photo, ['dogs', 'window'])).toMatchObject({ visible: ['dogs', 'window'], main: ['dogs'] });
    expect(judgeSubjects(photo, ['window', 'white'])).toMatchObject({ visible: ['window'], main: [] });
    expect(judgeSubjects(photo, ['white', 'golden', 'hour', 'close-up'])).toMatchObject({ visible: [], main: [] });
    expect(judgeSubjects(photo, ['house'])).toMatchObject({ visible: [], main: [] });
  });

  it("counts a wrong detector's object or person word, and not other wrong words", () => {
    expect(judgeSubjects(photo, ['cat', 'woman', 'people', 'blue', 'spaniels'], ['cat', 'dog']).wrongObjects).toEqual([
      'cat',
      'woman',
      'people',
    ]);
  });
});
