import type { ImageDetail, ImageView } from '@renamer/contracts';
import type { FilenameHistoryEntry, Image } from '@renamer/db';

const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

export const toImageView = (image: Image): ImageView => ({
  id: image.id,
  batchId: image.batchId,
  status: image.status,
  originalFilename: image.originalFilename,
  proposedFilename: image.proposedFilename,
  filename: image.filename,
  approved: image.status === 'approved',
  approvedAt: isoOrNull(image.approvedAt),
  checksum: image.checksum,
  size: image.size,
  mimeType: image.mimeType,
  metadata: image.metadata,
  visionTags: image.visionTags,
  altText: image.altText,
  seo: image.seo,
  safety: image.safety,
  error: image.error,
  createdAt: image.createdAt.toISOString(),
  updatedAt: image.updatedAt.toISOString(),
});

/** The image with its filename history, newest first, as the repository lists it. */
export const toImageDetail = (image: Image, history: readonly FilenameHistoryEntry[]): ImageDetail => ({
  ...toImageView(image),
  history: history.map((entry) => ({
    from: entry.oldFilename,
    to: entry.newFilename,
    source: entry.source,
    by: entry.by,
    at: entry.createdAt.toISOString(),
  })),
});
