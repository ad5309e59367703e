import { readdir } from 'node:fs/promises';
import { uniqueFilename } from '@renamer/domain';

/**
 * Names that never overwrite a file, numbered as the API numbers clashing names (`-2`, `-3`): in each folder
 * neither a file already there nor a name this run gave out is taken, compared without case (`own`: the file
 * being renamed, whose own name is free for it). The writes themselves are exclusive too, so a file created
 * meanwhile makes the run fail rather than be overwritten.
 */
export function folderNames() {
  const taken = new Map<string, Set<string>>();
  return async (folder: string, name: string, own?: string): Promise<string> => {
    let names = taken.get(folder);
    if (!names) {
      const present = await readdir(folder).catch(() => [] as string[]);
      names = new Set(present.map((entry) => entry.toLowerCase()));
      taken.set(folder, names);
    }
    const free =
      own && own.toLowerCase() === name.toLowerCase()
        ? name
        : uniqueFilename(name, { has: (candidate) => names.has(candidate.toLowerCase()) });
    names.delete(own?.toLowerCase() ?? '');
    names.add(free.toLowerCase());
    return free;
  };
}
