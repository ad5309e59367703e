import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { IMAGE_FILE_EXTENSIONS } from '@renamer/contracts';
import { CliError, EXIT } from './errors';

export interface LocalImage {
  path: string;
  /** The folder the path was found in (a file named directly: its own folder). */
  folder: string;
  name: string;
  size: number;
  checksum: string;
}

const EXTENSIONS = new Set<string>(IMAGE_FILE_EXTENSIONS);
/** Whether the picker takes a file of this name: not hidden, with an extension of an accepted format. */
export const isImageName = (name: string) =>
  !name.startsWith('.') && EXTENSIONS.has(extname(name).slice(1).toLowerCase());

/** The images among the paths given: files as named, folders' images (hidden ones skipped), recursively on request. */
export async function findImages(paths: string[], recursive: boolean): Promise<Omit<LocalImage, 'checksum'>[]> {
  const found: Omit<LocalImage, 'checksum'>[] = [];
  async function walk(folder: string) {
    const entries = await readdir(folder, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory() && recursive) await walk(path);
      else if (entry.isFile() && isImageName(entry.name))
        found.push({ path, folder, name: entry.name, size: (await stat(path)).size });
    }
  }
  for (const given of paths) {
    const path = resolve(given);
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new CliError(`${given}: no such file or folder`, EXIT.usage);
    if (info.isDirectory()) await walk(path);
    else found.push({ path, folder: resolve(path, '..'), name: basename(path), size: info.size });
  }
  return found;
}

/** SHA-256 of a file, read as a stream. */
export function sha256(path: string): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', fail)
      .on('end', () => done(hash.digest('hex')));
  });
}
