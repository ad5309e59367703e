import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One real photograph of the repository's fixtures, with what it shows as written down by a person. */
export interface FixturePhoto {
  /** Absolute path of the JPEG as stored (original metadata kept). */
  path: string;
  /** File name inside its fixture folder, e.g. `friends.jpg`. */
  file: string;
  /** The Debian package it was taken from, its version and the file inside it. */
  package: string;
  packageVersion: string;
  upstreamFile: string;
  author: string;
  licence: string;
  /** Words plainly true of the picture: subjects and synonyms, dominant colours, light and scene. */
  shows: string[];
  /** The `shows` words that name the main subject: what a person would say the picture is of. */
  subjects: string[];
  /** Words that are not wrong for the picture but not central to it. */
  acceptable: string[];
  description: string;
}

/** Resolved from this module, not from the working directory: the fixtures sit at the repository's root. */
export const TUNING_DIR = fileURLToPath(new URL('../../../../fixtures/photos/', import.meta.url));
export const UNSEEN_DIR = fileURLToPath(new URL('../../../../fixtures/photos-unseen/', import.meta.url));
const MANIFEST_FILE = 'photos.json';

/** The tuning set: thresholds may be calibrated on these. */
export function tuningPhotos(): Promise<FixturePhoto[]> {
  return readManifest(TUNING_DIR);
}

/** The held-out set, from other packages than the tuning set: only for judging the result, never for tuning. */
export function unseenPhotos(): Promise<FixturePhoto[]> {
  return readManifest(UNSEEN_DIR);
}

async function readManifest(dir: string): Promise<FixturePhoto[]> {
  const manifestPath = join(dir, MANIFEST_FILE);
  const entries: unknown = JSON.parse(await readFile(manifestPath, 'utf8'));
  if (!Array.isArray(entries)) throw new Error(`${manifestPath}: expected an array of photographs`);
  return entries.map((entry, index) => toFixturePhoto(dir, entry, `${manifestPath}[${index}]`));
}

const TEXT_FIELDS = ['file', 'package', 'packageVersion', 'upstreamFile', 'author', 'licence', 'description'] as const;
const WORD_FIELDS = ['shows', 'subjects', 'acceptable'] as const;

function toFixturePhoto(dir: string, entry: unknown, where: string): FixturePhoto {
  if (typeof entry !== 'object' || entry === null) throw new Error(`${where}: expected an object`);
  const record = entry as Record<string, unknown>;
  for (const field of TEXT_FIELDS) {
    const value = record[field];
    if (typeof value !== 'string' || value.trim() === '') throw new Error(`${where}.${field}: expected a text`);
  }
  for (const field of WORD_FIELDS) {
    const value = record[field];
    if (!Array.isArray(value) || !value.every((word) => typeof word === 'string' && word.trim() !== '')) {
      throw new Error(`${where}.${field}: expected a list of words`);
    }
  }
  const photo = record as unknown as Omit<FixturePhoto, 'path'>;
  return {
    path: join(dir, photo.file),
    file: photo.file,
    package: photo.package,
    packageVersion: photo.packageVersion,
    upstreamFile: photo.upstreamFile,
    author: photo.author,
    licence: photo.licence,
    shows: photo.shows,
    subjects: photo.subjects,
    acceptable: photo.acceptable,
    description: photo.description,
  };
}
