import { COPY_FORMATS, type DownloadOptions, DownloadView, STRIP_MODES } from '@renamer/contracts';
import type { Download } from '@renamer/db';

/**
 * What a download asked for, as its query parsed it: `embed` always; `strip`, the archive's switches and the
 * web-ready settings when the query has them (read loosely, so a query without one of them still records).
 */
export type AskedOptions = { embed: boolean } & { [K in Exclude<keyof DownloadOptions, 'embed'>]?: unknown };

const STRIP: readonly string[] = STRIP_MODES;
const FORMATS: readonly string[] = COPY_FORMATS;

/** The options recorded in `downloads.options`: `strip` defaults to `none`; unset settings are left out. */
export function recordedOptions(asked: AskedOptions): DownloadOptions {
  const options: DownloadOptions = {
    embed: asked.embed,
    strip:
      typeof asked.strip === 'string' && STRIP.includes(asked.strip)
        ? (asked.strip as DownloadOptions['strip'])
        : 'none',
  };
  if (typeof asked.approvedOnly === 'boolean') options.approvedOnly = asked.approvedOnly;
  if (typeof asked.manifest === 'boolean') options.manifest = asked.manifest;
  if (typeof asked.resize === 'number') options.resize = asked.resize;
  if (typeof asked.format === 'string' && FORMATS.includes(asked.format)) {
    options.format = asked.format as DownloadOptions['format'];
  }
  if (typeof asked.quality === 'number') options.quality = asked.quality;
  return options;
}

/** A recorded download as its owner sees it listed (the database's `zip` is an `archive` on the wire). */
export function toDownloadView(row: Download): DownloadView {
  const options = DownloadView.shape.options.safeParse(row.options);
  return {
    id: row.id,
    kind: row.kind === 'zip' ? 'archive' : 'image',
    batchId: row.batchId,
    ...(row.imageId ? { imageId: row.imageId } : {}),
    // Recorded before options were kept: the original bytes, as every download was then.
    options: options.success ? options.data : { embed: false, strip: 'none' },
    entries: row.entries ?? (row.kind === 'image' ? 1 : null),
    bytes: row.bytes,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}
