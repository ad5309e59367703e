import type { Readable } from 'node:stream';
import {
  AppError,
  type ArchiveEntryView,
  type BatchDownloadResponse,
  type BatchPreview,
  type DownloadLinkResponse,
  type DownloadList,
  isRawFormat,
} from '@renamer/contracts';
import type {
  ArchiveContents,
  ArchiveEntry,
  ArchiveEntryRepository,
  BatchRepository,
  Download,
  DownloadRepository,
  Image,
  ImageRepository,
} from '@renamer/db';
import {
  buildRenameKit,
  type CopyRequest,
  copyExtension,
  copyTarget,
  KIT_DIR,
  type MetadataEmbedder,
  parseBaseUrl,
  type SeoFields,
  seoFieldsFor,
  type WebReadyCopy,
  withExtension,
} from '@renamer/delivery';
import { FILE_EXTENSIONS, safeEntryName, uniqueEntryNames } from '@renamer/domain';
import { FORMAT_OF_TYPE, isImageMimeType, openUprightImage } from '@renamer/imaging';
import type { CallLog } from '@renamer/runtime';
import { ObjectNotFoundError, type ObjectStore, verifyDownloadLink } from '@renamer/storage';
import { countBytes } from './count-bytes';
import type { ArchiveOptions, DeliveryLinks, ImageCopyOptions } from './delivery-links';
import { type AskedOptions, recordedOptions, toDownloadView } from './recorded-options';
import { zipArchive } from './zip-archive';

export const IMAGE_LINK_SECONDS = 15 * 60;
export const ARCHIVE_LINK_SECONDS = 60 * 60;

export interface DownloadServiceDeps {
  archiveEntries: Pick<ArchiveEntryRepository, 'listForUser'>;
  images: Pick<ImageRepository, 'findByIdForUser'>;
  batches: Pick<BatchRepository, 'findByIdForUser'>;
  downloads: Pick<DownloadRepository, 'create' | 'findById' | 'addBytes' | 'listPageForUser'>;
  store: Pick<ObjectStore, 'get' | 'stat' | 'downloadUrl'>;
  links: DeliveryLinks;
  /** The API's origin, where `/api/files/<token>` is served. */
  publicUrl: string;
  signingSecret: string;
  /** Writes an image's SEO fields into a copy of it (one long-lived ExifTool). */
  embedder: Pick<MetadataEmbedder, 'embed' | 'sidecar' | 'copy'>;
  /** Off (`embed-metadata`): links asked for with `embed` serve the originals. */
  embedEnabled: () => Promise<boolean>;
  now?: () => Date;
}

/** What `GET /api/files/<token>` sends. */
export interface ServedFile {
  body: Readable;
  contentType: string;
  /** Content-Length, when known ahead. */
  size?: number;
  /** Served as an attachment under this name. */
  filename?: string;
}

const formatOf = (mimeType: string) => (isImageMimeType(mimeType) ? FORMAT_OF_TYPE[mimeType] : undefined);

/** The extension a stored image's copy is written under, so that exiftool knows its format. */
function extensionOf(mimeType: string): string {
  const format = formatOf(mimeType);
  return format ? FILE_EXTENSIONS[format] : 'bin';
}

/** Camera RAW: its SEO fields travel in an XMP sidecar, never written into it. */
function isRaw(mimeType: string): boolean {
  const format = formatOf(mimeType);
  return format !== undefined && isRawFormat(format);
}

/**
 * `<stem>.xmp` beside the RAW file, as photo tools look for it; when two RAW files share a stem (`a.cr2`,
 * `a.dng`), the later one's sidecar keeps the whole name (`a.dng.xmp`).
 */
function sidecarNames(entries: readonly { name: string; mimeType: string }[], reencoded = false): Map<string, string> {
  const names = new Map<string, string>();
  // Re-encoded from their previews, RAW files become pictures that carry their fields themselves.
  if (reencoded) return names;
  const used = new Set<string>();
  for (const entry of entries) {
    if (!isRaw(entry.mimeType)) continue;
    const stem = `${entry.name.slice(0, entry.name.lastIndexOf('.'))}.xmp`;
    const name = used.has(stem) ? `${entry.name}.xmp` : stem;
    used.add(name);
    names.set(entry.name, name);
  }
  return names;
}

const noSuchBatch = () => new AppError('not_found', 'No such batch.');
const noSuchImage = () => new AppError('not_found', 'No such image.');
const gone = () => new AppError('not_found', 'What this link points to no longer exists.');

/** Whole seconds, as the signed tokens carry them, so the expiry we answer is the one enforced. */
function expiryAfter(now: Date, seconds: number): Date {
  return new Date((Math.floor(now.getTime() / 1000) + seconds) * 1000);
}

/** The name an image is delivered under: its current filename, or (not named yet) its upload's name made safe. */
const deliveredName = (image: Pick<Image, 'filename' | 'originalFilename'>) =>
  image.filename ?? safeEntryName(image.originalFilename);

/** The image's SEO fields under `filename`: its tags are what the analysis saw, then the batch's keywords. */
function seoFields(
  image: Pick<ArchiveEntry, 'altText' | 'visionTags'>,
  filename: string,
  keywords: readonly string[],
): SeoFields {
  const tags = [...image.visionTags.map((tag) => tag.label), ...keywords];
  return seoFieldsFor({ filename, altText: image.altText, tags });
}

/**
 * The web-ready settings of an archive, when it asked for any (a size, a format other than each image's own, or a
 * quality): then every image is re-encoded.
 */
function webReadyOf({ resize, format, quality }: ArchiveOptions) {
  if (resize === undefined && quality === undefined && (format ?? 'original') === 'original') return undefined;
  return { resize, quality, format: format ?? 'original' };
}
type WebReady = NonNullable<ReturnType<typeof webReadyOf>>;

/** How an image of this type is re-encoded for `webReady` (unknown types go out as they are). */
function webReadyCopy(mimeType: string, webReady: WebReady): WebReadyCopy | undefined {
  const format = formatOf(mimeType);
  if (!format) return undefined;
  return {
    target: copyTarget(format, webReady.format),
    resize: webReady.resize,
    quality: webReady.quality,
    open: (path) => openUprightImage(path, format, { maxEdge: webReady.resize }),
  };
}

/**
 * The archive's entries under the names they get in it (safe, unique), in upload order; with web-ready copies,
 * under the extension of the format each is re-encoded in.
 */
function namedEntries(contents: ArchiveContents, webReady?: WebReady) {
  const names = uniqueEntryNames(
    contents.entries.map((entry) => {
      const copy = webReady && webReadyCopy(entry.mimeType, webReady);
      return copy ? withExtension(entry.filename, copyExtension(copy.target)) : entry.filename;
    }),
    [KIT_DIR],
  );
  return contents.entries.map((entry, index) => ({ ...entry, name: names[index]! }));
}

const toView = (entry: ArchiveEntry & { name: string }): ArchiveEntryView => ({
  imageId: entry.imageId,
  originalFilename: entry.originalFilename,
  filename: entry.name,
  status: entry.status,
  approved: entry.approved,
});

/**
 * Single downloads, the batch preview and the batch archive. The preview and the archive read the same
 * function (`archiveEntries.listForUser`) and name entries the same way, so they cannot disagree.
 */
export function createDownloadService(deps: DownloadServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const filesUrl = (token: string) => `${deps.publicUrl.replace(/\/+$/, '')}/api/files/${token}`;

  async function contentsFor(userId: string, batchId: string, approvedOnly: boolean, webReady?: WebReady) {
    const contents = await deps.archiveEntries.listForUser(batchId, userId, { approvedOnly });
    if (!contents) throw noSuchBatch();
    return { contents, entries: namedEntries(contents, webReady) };
  }

  /** The stored original, or 404 when it went while the link was out. */
  async function original(key: string): Promise<Readable> {
    return deps.store.get(key).catch((error) => {
      if (error instanceof ObjectNotFoundError) throw gone();
      throw error;
    });
  }

  function recordBytes(download: Download, log: CallLog) {
    return (bytes: number, completed: boolean) => {
      deps.downloads.addBytes(download.id, bytes, { completed }).catch((err) => {
        log.error({ err, downloadId: download.id }, 'bytes of a download not recorded');
      });
    };
  }

  async function serveArchive(download: Download, options: ArchiveOptions, log: CallLog): Promise<ServedFile> {
    if (download.kind !== 'zip' || !download.batchId) throw gone();
    const webReady = webReadyOf(options);
    const strip = options.strip ?? 'none';
    const { contents, entries } = await contentsFor(
      download.userId,
      download.batchId,
      download.approvedOnly,
      webReady,
    ).catch((error) => {
      throw error instanceof AppError && error.code === 'not_found' ? gone() : error;
    });
    const mtime = now();
    const sidecars = options.embed ? sidecarNames(entries, webReady !== undefined) : new Map<string, string>();
    const streamed = entries.flatMap((entry) => {
      const fields = () => seoFields(entry, entry.name, contents.batch.keywords);
      // A camera RAW keeps its bytes (its SEO fields in a sidecar) unless re-encoded from its preview or asked
      // without its location or metadata: exiftool strips a RAW file in place of a copy as it does any other.
      const raw = isRaw(entry.mimeType);
      const copy = webReady && webReadyCopy(entry.mimeType, webReady);
      const rewritten = copy !== undefined || strip !== 'none' || (!raw && options.embed);
      const request = (): CopyRequest => ({
        extension: extensionOf(entry.mimeType),
        strip,
        fields: options.embed && (!raw || copy) ? fields() : undefined,
        webReady: copy,
      });
      const image = {
        name: entry.name,
        mtime,
        size: rewritten ? undefined : entry.size,
        open: async () => {
          const source = await original(entry.storageKey);
          if (!rewritten) return source;
          return (await deps.embedder.copy(source, request())).stream;
        },
      };
      const sidecar = sidecars.get(entry.name);
      if (!sidecar) return [image];
      return [image, { name: sidecar, mtime, open: async () => (await deps.embedder.sidecar(fields())).stream }];
    });
    const kit = options.manifest
      ? buildRenameKit(
          entries.map((entry) => {
            const { title, altText, keywords } = seoFields(entry, entry.name, contents.batch.keywords);
            const { originalFilename, checksum, size } = entry;
            return { originalFilename, filename: entry.name, title, altText, keywords, checksum, size };
          }),
          { baseUrl: options.baseUrl },
        )
      : [];
    const archive = zipArchive(
      streamed,
      kit.map((file) => ({ ...file, mtime })),
      {
        onError: (err) => log.error({ err, downloadId: download.id }, 'archive cut off'),
        onClose: recordBytes(download, log),
      },
    );
    return {
      body: archive.stream,
      contentType: 'application/zip',
      size: archive.size,
      filename: `${safeEntryName(contents.batch.name ?? `batch-${contents.batch.id.slice(0, 8)}`)}.zip`,
    };
  }

  async function serveEmbeddedImage(download: Download, options: ImageCopyOptions, log: CallLog): Promise<ServedFile> {
    if (download.kind !== 'image' || !download.imageId) throw gone();
    const image = await deps.images.findByIdForUser(download.imageId, download.userId);
    const batch = image && (await deps.batches.findByIdForUser(image.batchId, download.userId));
    if (!image || !batch) throw gone();
    const filename = deliveredName(image);
    const embedded = await deps.embedder.copy(await original(image.storageKey), {
      extension: extensionOf(image.mimeType),
      strip: options.strip,
      fields: options.embed ? seoFields(image, filename, batch.keywords) : undefined,
    });
    return {
      body: countBytes(embedded.stream, recordBytes(download, log)),
      contentType: image.mimeType,
      size: embedded.size,
      filename,
    };
  }

  return {
    /** A 15-minute link to the image's bytes (the original, or with `embed` a copy carrying its SEO fields). */
    async imageLink(userId: string, imageId: string, asked: AskedOptions): Promise<DownloadLinkResponse> {
      const { embed } = asked;
      const image = await deps.images.findByIdForUser(imageId, userId);
      if (!image) throw noSuchImage();
      const recorded = { batchId: image.batchId, entries: 1 };
      // A RAW file alone is never embedded (its sidecar only has a place beside it in the archive), but a location
      // asked away is taken out of its copy as out of any other.
      const raw = isRaw(image.mimeType);
      const strip = recordedOptions(asked).strip;
      const embedded = embed && !raw && (await deps.embedEnabled());
      // A copy the service makes (fields written in, metadata stripped): the API's own link, never the store's.
      if (embedded || strip !== 'none') {
        const expiresAt = expiryAfter(now(), IMAGE_LINK_SECONDS);
        const options = recordedOptions({ ...asked, embed: embedded, strip });
        const download = await deps.downloads.create({
          kind: 'image',
          userId,
          imageId,
          expiresAt,
          options,
          ...recorded,
        });
        const token = deps.links.embeddedImage(download.id, expiresAt, { embed: embedded, strip });
        return { url: filesUrl(token), expiresAt: expiresAt.toISOString() };
      }
      const link = await deps.store.downloadUrl(image.storageKey, {
        expiresInSeconds: IMAGE_LINK_SECONDS,
        filename: deliveredName(image),
        contentType: image.mimeType,
      });
      await deps.downloads.create({
        kind: 'image',
        userId,
        imageId,
        expiresAt: link.expiresAt,
        options: recordedOptions({ ...asked, embed: false, strip: 'none' }),
        ...recorded,
      });
      return { url: link.url, expiresAt: link.expiresAt.toISOString() };
    },

    /** The user's downloads, newest first, a page at a time. */
    async list(userId: string, page: { limit: number; cursor?: string }): Promise<DownloadList> {
      const { items, nextCursor } = await deps.downloads.listPageForUser(userId, page);
      return { items: items.map(toDownloadView), nextCursor };
    },

    async preview(userId: string, batchId: string, { approvedOnly }: { approvedOnly: boolean }): Promise<BatchPreview> {
      const { entries } = await contentsFor(userId, batchId, approvedOnly);
      return { batchId, entries: entries.map(toView) };
    },

    /** Records the download and answers a 60-minute link to the archive, which needs no credentials. */
    async batchLink(
      userId: string,
      batchId: string,
      { approvedOnly, ...asked }: ArchiveOptions & { approvedOnly: boolean },
    ): Promise<BatchDownloadResponse> {
      const { entries } = await contentsFor(userId, batchId, approvedOnly);
      const options = { ...asked, embed: asked.embed && (await deps.embedEnabled()) };
      // The kit's own rules judge a baseUrl (400 validation_failed), now rather than when the link is fetched.
      if (options.manifest && options.baseUrl !== undefined) parseBaseUrl(options.baseUrl);
      if (entries.length === 0) {
        throw new AppError(
          'conflict',
          approvedOnly ? 'The batch has no approved images.' : 'The batch has no named images yet.',
        );
      }
      const expiresAt = expiryAfter(now(), ARCHIVE_LINK_SECONDS);
      const download = await deps.downloads.create({
        kind: 'zip',
        userId,
        batchId,
        approvedOnly,
        expiresAt,
        options: recordedOptions({ ...options, approvedOnly }),
        entries: entries.length,
      });
      return {
        url: filesUrl(deps.links.archive(download.id, expiresAt, options)),
        expiresAt: expiresAt.toISOString(),
        entries: entries.length,
      };
    },

    /**
     * What a signed `/api/files/<token>` link serves: a stored object (the filesystem driver's links), a batch's
     * archive or an embedded copy. Tampered: 403; expired: 410; its content gone meanwhile: 404.
     */
    async openLink(token: string, log: CallLog): Promise<ServedFile> {
      const objectLink = verifyDownloadLink(token, deps.signingSecret, now());
      const delivery = objectLink.ok ? undefined : deps.links.verify(token, now());
      if (
        (!objectLink.ok && objectLink.reason === 'expired') ||
        (delivery && !delivery.ok && delivery.reason === 'expired')
      )
        throw new AppError('link_expired', 'This download link has expired.');
      if (objectLink.ok) {
        const info = await deps.store.stat(objectLink.key);
        if (!info) throw gone();
        return {
          body: await original(objectLink.key),
          contentType: objectLink.contentType ?? info.contentType ?? 'application/octet-stream',
          size: info.size,
          filename: objectLink.filename,
        };
      }
      if (!delivery?.ok) throw new AppError('forbidden', 'This download link is not valid.');
      const link = delivery.payload;
      const download = await deps.downloads.findById('zip' in link ? link.zip : link.image);
      if (!download) throw gone();
      if ('zip' in link) {
        const { embed, manifest, baseUrl, strip, resize, format, quality } = link;
        return serveArchive(
          download,
          { embed: embed ?? false, manifest: manifest ?? false, baseUrl, strip, resize, format, quality },
          log,
        );
      }
      return serveEmbeddedImage(download, { embed: link.embed ?? true, strip: link.strip ?? 'none' }, log);
    },
  };
}

export type DownloadService = ReturnType<typeof createDownloadService>;
