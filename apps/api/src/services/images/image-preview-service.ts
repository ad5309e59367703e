import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, IMAGE_FORMAT_TABLE, type PreviewQuerySize, type PreviewSize } from '@renamer/contracts';
import type { Image, ImageRepository } from '@renamer/db';
import { FORMAT_OF_TYPE, isImageMimeType, PREVIEW_CONTENT_TYPE, previewOfFile } from '@renamer/imaging';
import type { CallLog } from '@renamer/runtime';
import { ObjectNotFoundError, type ObjectStore, previewObjectKey } from '@renamer/storage';
import pLimit from 'p-limit';

export interface ImagePreviewServiceDeps {
  images: Pick<ImageRepository, 'findByIdForUser'>;
  store: Pick<ObjectStore, 'get' | 'put' | 'delete'>;
  /** Where an original is copied to while a missing preview is made from it. */
  tmpDir: string;
}

/** Bumped when the preview's encoding changes, so that browsers holding an older one fetch it again. */
const PREVIEW_VERSION = 1;

/** In the `ETag`, so that a copy of one size never validates a request for the other. */
const ETAG_SIZE_MARK = { small: 'p', large: 'l' } as const satisfies Record<PreviewSize, string>;

/**
 * A preview is made from the original alone, which never changes, so the image's checksum and the size name
 * it. Weak: the worker's preview and one made on demand show the same picture but need not be the same bytes.
 */
const etagOf = (image: Image, size: PreviewSize) =>
  `W/"${image.checksum.slice(0, 32)}-${ETAG_SIZE_MARK[size]}${PREVIEW_VERSION}"`;

/** The original's own bytes, named by their checksum: a strong tag. */
const originalEtagOf = (image: Image) => `"${image.checksum.slice(0, 32)}-o"`;

/** The original itself for `full`, when a browser shows its format; for the others the large preview stands in. */
function shownAsItself(image: Image): boolean {
  const format = isImageMimeType(image.mimeType) ? FORMAT_OF_TYPE[image.mimeType] : null;
  return format !== null && IMAGE_FORMAT_TABLE[format].shownByBrowsers;
}

export interface ImagePreview {
  etag: string;
  contentType: string;
  /** The body's length when it is streamed (the original's stored size). */
  size?: number;
  /** The bytes; undefined when the caller's copy (`If-None-Match`) is current. */
  body?: Readable | Buffer;
}

const noSuchImage = () => new AppError('not_found', 'No such image.');
const undecodable = () => new AppError('undecodable_image', 'The image cannot be decoded, so it has no preview.');

/**
 * An image's preview of a size for its owner. Full: the original, streamed from the store as it is, when browsers
 * show its format (nothing is decoded), else the large preview. Small: the one the analysis stored, or, for an image analysed
 * before previews existed or not analysed yet, one made from the original once and stored for the next request.
 * Large: always made that way, on the first request for it (the analysis decodes too small for it). Requests
 * that arrive while a preview is being made wait for it instead of making it again.
 */
export function createImagePreviewService(deps: ImagePreviewServiceDeps) {
  const making = new Map<string, Promise<Buffer>>();
  // A decode per core at most: a page asking for many photos at once (or someone asking for thousands) queues here
  // instead of making the API answer nothing else (p-limit: a maintained, tiny semaphore).
  const decoding = pLimit(availableParallelism());

  async function makeFromOriginal(image: Image, size: PreviewSize, key: string, log: CallLog): Promise<Buffer> {
    const format = image.metadata?.format ?? (isImageMimeType(image.mimeType) ? FORMAT_OF_TYPE[image.mimeType] : null);
    if (!format) throw undecodable();
    const dir = await mkdtemp(join(deps.tmpDir, 'renamer-preview-'));
    try {
      const path = join(dir, 'original');
      await pipeline(await deps.store.get(image.storageKey), createWriteStream(path, { mode: 0o600 }));
      const webp = await previewOfFile(path, format, size).catch((err: unknown) => {
        log.warn({ err, imageId: image.id, size }, 'no preview: the original could not be decoded');
        throw undecodable();
      });
      await deps.store.put(key, Readable.from([webp]), { size: webp.length, contentType: PREVIEW_CONTENT_TYPE });
      // Deleted while the preview was made: the deletion could not see it, so it goes here.
      if (!(await deps.images.findByIdForUser(image.id, image.userId))) await deps.store.delete(key);
      return webp;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Keyed by the object's key, which names the image and the size. */
  function makeOnce(image: Image, size: PreviewSize, key: string, log: CallLog): Promise<Buffer> {
    let made = making.get(key);
    if (!made) {
      made = decoding(() => makeFromOriginal(image, size, key, log)).finally(() => making.delete(key));
      making.set(key, made);
    }
    return made;
  }

  return {
    async preview(
      userId: string,
      imageId: string,
      asked: PreviewQuerySize,
      ifNoneMatch: string | undefined,
      log: CallLog,
    ): Promise<ImagePreview> {
      const image = await deps.images.findByIdForUser(imageId, userId);
      if (!image) throw noSuchImage();
      if (asked === 'full' && shownAsItself(image)) {
        const original: ImagePreview = { etag: originalEtagOf(image), contentType: image.mimeType };
        if (ifNoneMatch && matchesEtag(ifNoneMatch, original.etag)) return original;
        return { ...original, size: image.size, body: await deps.store.get(image.storageKey) };
      }
      const size: PreviewSize = asked === 'full' ? 'large' : asked;
      const served: ImagePreview = { etag: etagOf(image, size), contentType: PREVIEW_CONTENT_TYPE };
      if (ifNoneMatch && matchesEtag(ifNoneMatch, served.etag)) return served;
      const key = previewObjectKey(userId, imageId, size);
      try {
        return { ...served, body: await deps.store.get(key) };
      } catch (error) {
        if (!(error instanceof ObjectNotFoundError)) throw error;
      }
      log.info({ imageId, size }, 'preview missing: made from the original');
      return { ...served, body: await makeOnce(image, size, key, log) };
    },
  };
}

/** `If-None-Match` compares weakly (RFC 9110 §13.1.2): `*`, or any listed tag with or without `W/`. */
function matchesEtag(header: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.trim() === '*' || header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

export type ImagePreviewService = ReturnType<typeof createImagePreviewService>;
