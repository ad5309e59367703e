import { createWriteStream } from 'node:fs';
import { constants, copyFile, mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { DownloadLinkResponse, type StripMode } from '@renamer/contracts';
import { uniqueEntryNames } from '@renamer/domain';
import { ZipFile } from 'yazl';
import type { ApiClient } from './client';
import { type LocalImage, sha256 } from './files';
import { folderNames } from './names';
import type { Reporter } from './progress';
import type { RenamedFile } from './rename-result';
import { type Change, renameNoClobber, writeUndoManifest } from './undo-manifest';

/** What the delivered copies are made with: the SEO fields written in, the metadata stripped (`--strip`). */
interface CopyOptions {
  embed: boolean;
  strip: StripMode;
}

export type Delivery =
  | ({ kind: 'zip'; path: string } & CopyOptions)
  | ({ kind: 'copy'; folder: string } & CopyOptions)
  | { kind: 'in-place'; manifestFolder: string };

/** Whether the files go out as the server's copies rather than the local bytes. */
const serverMade = ({ embed, strip }: CopyOptions) => embed || strip !== 'none';

/**
 * The bytes of an image as the server makes its copy (`?embed=true` writes the metadata in, `?strip=` takes it
 * out), streamed.
 */
async function serverCopy(client: ApiClient, imageId: string, { embed, strip }: CopyOptions): Promise<Readable> {
  const query = new URLSearchParams();
  if (embed) query.set('embed', 'true');
  if (strip !== 'none') query.set('strip', strip);
  const { url } = await client.request(`/api/image/${imageId}/download?${query}`, DownloadLinkResponse);
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`the server's copy of ${imageId} answered ${response.status}`);
  return Readable.fromWeb(response.body as ReadableStream);
}

/**
 * Delivers every renamed file under its new name, never over another file: into a ZIP (original bytes, or the
 * server's copy with the metadata written in or stripped), as copies in a folder, or renamed where it is. Copies and renames
 * leave an undo manifest. Each file's `deliveredAs` is filled in.
 */
export async function deliver(
  client: ApiClient,
  files: RenamedFile[],
  images: LocalImage[],
  delivery: Delivery,
  reporter: Reporter,
): Promise<{ archive?: string; undoManifest?: string }> {
  const checksumOf = new Map(images.map((image) => [image.path, image.checksum]));
  const named = files.filter((file) => file.newName && file.imageId);
  const names = folderNames();

  if (delivery.kind === 'zip') {
    const path = join(dirname(delivery.path), await names(dirname(delivery.path), basename(delivery.path)));
    // The names the server's own archive would give them.
    const entryNames = uniqueEntryNames(named.map((file) => file.newName!));
    const zip = new ZipFile();
    const written = pipeline(zip.outputStream, createWriteStream(path, { flags: 'wx' }));
    for (const [index, file] of named.entries()) {
      file.deliveredAs = entryNames[index]!;
      if (serverMade(delivery)) {
        const imageId = file.imageId!;
        zip.addReadStreamLazy(file.deliveredAs, { compress: false }, (done) =>
          serverCopy(client, imageId, delivery).then(
            (stream) => done(null, stream),
            (error) => done(error, undefined as never),
          ),
        );
      } else zip.addFile(file.path, file.deliveredAs, { compress: false });
    }
    zip.end();
    await written;
    reporter.line(`wrote ${path} (${named.length} images)`);
    return { archive: path };
  }

  const changes: Change[] = [];
  if (delivery.kind === 'copy') {
    await mkdir(delivery.folder, { recursive: true });
    for (const file of named) {
      const to = join(delivery.folder, await names(delivery.folder, file.newName!));
      const made = serverMade(delivery);
      if (made)
        await pipeline(await serverCopy(client, file.imageId!, delivery), createWriteStream(to, { flags: 'wx' }));
      else await copyFile(file.path, to, constants.COPYFILE_EXCL);
      changes.push({ from: file.path, to, checksum: made ? await sha256(to) : checksumOf.get(file.path)! });
      file.deliveredAs = to;
    }
  } else {
    for (const file of named) {
      const folder = dirname(file.path);
      const name = await names(folder, file.newName!, basename(file.path));
      const to = join(folder, name);
      file.deliveredAs = to;
      if (to === file.path) continue;
      await renameNoClobber(file.path, to);
      changes.push({ from: file.path, to, checksum: checksumOf.get(file.path)! });
    }
  }
  if (changes.length === 0) return {};
  const manifestFolder = delivery.kind === 'copy' ? delivery.folder : delivery.manifestFolder;
  const undoManifest = await writeUndoManifest(manifestFolder, delivery.kind === 'copy' ? 'copy' : 'rename', changes);
  reporter.line(
    `${changes.length} files ${delivery.kind === 'copy' ? 'copied' : 'renamed'}; undo with: renamer undo ${undoManifest}`,
  );
  return { undoManifest };
}
