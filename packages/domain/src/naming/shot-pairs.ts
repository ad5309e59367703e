import { type ImageFormat, isRawFormat, type SafeExif } from '@renamer/contracts';

/** What ties a RAW file to the JPEG the camera wrote of the same shot. */
export interface ShotFacts {
  originalFilename: string;
  exif?: SafeExif | null;
}

/**
 * One shot's key: the uploaded name's stem (case aside: `IMG_0412.CR2` and `img_0412.jpg`), the camera and the
 * capture time; null when any of the three is missing, since a stem alone is shared by unrelated files.
 */
export function shotKey({ originalFilename, exif }: ShotFacts): string | null {
  const dot = originalFilename.lastIndexOf('.');
  const stem = (dot > 0 ? originalFilename.slice(0, dot) : originalFilename).toLowerCase();
  if (!stem || !exif?.make || !exif.model || !exif.dateTimeOriginal) return null;
  return JSON.stringify([stem, exif.make, exif.model, exif.dateTimeOriginal]);
}

interface Pairable {
  id: string;
  format: ImageFormat;
  shot?: string | null;
}

/**
 * Files of one shot in different formats, at least one of them RAW: each pair's lead (its first non-RAW file,
 * which the person sees first) is named, and the others follow it under the same stem. Returns the followers
 * by their lead's id.
 */
export function shotFollowers<T extends Pairable>(items: readonly T[]): Map<string, T[]> {
  const byShot = new Map<string, T[]>();
  for (const item of items) {
    if (!item.shot) continue;
    const members = byShot.get(item.shot);
    if (members) members.push(item);
    else byShot.set(item.shot, [item]);
  }
  const followers = new Map<string, T[]>();
  for (const members of byShot.values()) {
    const formats = new Set(members.map((member) => member.format));
    if (formats.size !== members.length || !members.some((member) => isRawFormat(member.format))) continue;
    const lead = members.find((member) => !isRawFormat(member.format)) ?? members[0]!;
    followers.set(
      lead.id,
      members.filter((member) => member !== lead),
    );
  }
  return followers;
}
