import { access } from 'node:fs/promises';
import { extname, join } from 'node:path';

const MAX_SUFFIX = 10_000;

/** `name` itself for n = 1, else `stem-n.ext`, as the API numbers clashing names. */
function candidate(name: string, n: number): string {
  if (n === 1) return name;
  const extension = extname(name);
  return `${name.slice(0, name.length - extension.length)}-${n}${extension}`;
}

/** Names unique within an archive, compared without case (as the API names ZIP entries). */
export function archiveNames() {
  const taken = new Set<string>();
  return (name: string): string => {
    for (let n = 1; n < MAX_SUFFIX; n++) {
      const next = candidate(name, n);
      if (taken.has(next.toLowerCase())) continue;
      taken.add(next.toLowerCase());
      return next;
    }
    throw new Error(`no free name for ${name}`);
  };
}

/**
 * Names that never overwrite a file: in each folder, neither a file on disk nor a name this run already gave out
 * is taken (`own`: the file being renamed, whose own name is free for it).
 */
export function folderNames() {
  const given = new Map<string, Set<string>>();
  return async (folder: string, name: string, own?: string): Promise<string> => {
    const taken = given.get(folder) ?? new Set<string>();
    given.set(folder, taken);
    for (let n = 1; n < MAX_SUFFIX; n++) {
      const next = candidate(name, n);
      if (taken.has(next.toLowerCase())) continue;
      const onDisk = await access(join(folder, next)).then(
        () => true,
        () => false,
      );
      if (next === own || !onDisk) {
        taken.add(next.toLowerCase());
        return next;
      }
    }
    throw new Error(`no free name for ${name} in ${folder}`);
  };
}
