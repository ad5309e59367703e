import { constants, copyFile, link, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { CliError, EXIT } from './errors';
import { sha256 } from './files';

/**
 * What a run that changed files did, kept beside them as `.renamer-undo-<time>.json`: each file's name before and
 * after (relative to the manifest's folder) with the checksum of its bytes. `rename`: files renamed where they
 * were; `copy`: renamed copies written (undo removes them).
 */
const UndoManifest = z.object({
  version: z.literal(1),
  kind: z.enum(['rename', 'copy']),
  createdAt: z.iso.datetime(),
  entries: z.array(z.object({ from: z.string(), to: z.string(), checksum: z.string() })),
});
type UndoManifest = z.infer<typeof UndoManifest>;
export interface Change {
  from: string;
  to: string;
  checksum: string;
}

export async function writeUndoManifest(
  folder: string,
  kind: UndoManifest['kind'],
  changes: Change[],
): Promise<string> {
  const createdAt = new Date().toISOString();
  const path = join(folder, `.renamer-undo-${createdAt.replace(/[:.]/g, '-')}.json`);
  const manifest: UndoManifest = {
    version: 1,
    kind,
    createdAt,
    entries: changes.map((change) => ({
      ...change,
      from: relative(folder, change.from),
      to: relative(folder, change.to),
    })),
  };
  await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
  return path;
}

/**
 * Renames a file without ever replacing another: a hard link to the new name fails if that name exists (at once,
 * unlike a check before a rename), then the old name goes. Where hard links are not supported, an exclusive copy.
 */
export async function renameNoClobber(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
    await copyFile(from, to, constants.COPYFILE_EXCL);
  }
  await unlink(from);
}

export interface UndoOutcome {
  restored: string[];
  refused: { path: string; why: string }[];
}

/** Puts every name of a manifest back, refusing each file that changed since (or whose old name is taken now). */
export async function undo(manifestPath: string): Promise<UndoOutcome> {
  const text = await readFile(manifestPath, 'utf8').catch(() => {
    throw new CliError(`${manifestPath}: no such manifest`, EXIT.usage);
  });
  const parsed = UndoManifest.safeParse(JSON.parse(text));
  if (!parsed.success) throw new CliError(`${manifestPath} is not an undo manifest of renamer`, EXIT.usage);
  const folder = dirname(resolve(manifestPath));
  const outcome: UndoOutcome = { restored: [], refused: [] };
  for (const entry of parsed.data.entries) {
    const [from, to] = [join(folder, entry.from), join(folder, entry.to)];
    const checksum = await sha256(to).catch(() => undefined);
    if (checksum === undefined) outcome.refused.push({ path: to, why: 'is gone' });
    else if (checksum !== entry.checksum) outcome.refused.push({ path: to, why: 'changed since the run' });
    else if (parsed.data.kind === 'copy') {
      await unlink(to);
      outcome.restored.push(to);
    } else {
      await renameNoClobber(to, from).then(
        () => outcome.restored.push(from),
        () => outcome.refused.push({ path: to, why: `cannot go back to ${entry.from}: a file has that name now` }),
      );
    }
  }
  if (outcome.refused.length === 0) await unlink(manifestPath);
  return outcome;
}
