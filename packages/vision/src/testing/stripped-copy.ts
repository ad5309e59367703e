import { createHash } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { ExifTool } from 'exiftool-vendored';
import type { FixturePhoto } from './fixture-photos';

/**
 * A copy of the photograph with every metadata tag removed (`exiftool -all=`: EXIF, XMP, IPTC, ICC, comments), so
 * that only its pixels speak. The JPEG's image data is untouched. The copy is named after a hash of the fixture's
 * path: a camera-made name the analyser ignores, so no word of the fixture's own name can reach a proposal.
 *
 * Pass a running ExifTool to reuse it (the caller ends it); without one, one is started and ended for this copy.
 */
export async function strippedCopy(
  photo: Pick<FixturePhoto, 'path' | 'file'>,
  dir: string,
  exiftool?: ExifTool,
): Promise<string> {
  const copy = join(dir, `${createHash('sha256').update(photo.path).digest('hex').slice(0, 32)}${extname(photo.file)}`);
  await mkdir(dir, { recursive: true });
  await copyFile(photo.path, copy);
  await withExifTool(exiftool, (tool) => tool.write(copy, {}, { writeArgs: ['-all=', '-overwrite_original'] }));
  return copy;
}

/** Stripped copies of many photographs through one ExifTool, in the order given. */
export async function strippedCopies(
  photos: readonly Pick<FixturePhoto, 'path' | 'file'>[],
  dir: string,
): Promise<string[]> {
  return withExifTool(undefined, async (tool) => {
    const copies: string[] = [];
    for (const photo of photos) copies.push(await strippedCopy(photo, dir, tool));
    return copies;
  });
}

/** Runs `work` with the given ExifTool, or with one of its own that is ended afterwards whatever happens. */
export async function withExifTool<T>(given: ExifTool | undefined, work: (tool: ExifTool) => Promise<T>): Promise<T> {
  if (given) return work(given);
  const own = new ExifTool({ useMWG: false });
  try {
    return await work(own);
  } finally {
    await own.end();
  }
}
