import { DownloadList, type DownloadView } from '@renamer/contracts';
import type { ApiClient } from './client';
import { CliError, EXIT } from './errors';
import { table } from './table';

/** How the copies were made, in a few words: `as uploaded` when nothing changed them. */
export function optionsInWords(options: DownloadView['options']): string {
  const parts = [
    options.embed ? 'embed' : undefined,
    options.strip !== 'none' ? `strip ${options.strip}` : undefined,
    options.resize ? `${options.resize}px` : undefined,
    options.format && options.format !== 'original' ? options.format : undefined,
    options.quality ? `q${options.quality}` : undefined,
    options.approvedOnly ? 'approved only' : undefined,
    options.manifest ? 'manifest' : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'as uploaded';
}

/** The account's most recent downloads, newest first (GET /api/downloads, at most `limit`). */
export async function recentDownloads(api: ApiClient, limit: string | undefined): Promise<DownloadView[]> {
  const count = limit === undefined ? 50 : Number(limit);
  if (!Number.isInteger(count) || count < 1 || count > 100) {
    throw new CliError(`--limit must be a whole number from 1 to 100, not ${limit}`, EXIT.usage);
  }
  return (await api.request(`/api/downloads?limit=${count}`, DownloadList)).items;
}

/** One line per download: when, what, how many images, the bytes sent and whether all went out, how. */
export function downloadsTable(items: readonly DownloadView[]): string {
  return table(
    ['created', 'kind', 'entries', 'bytes', 'completed', 'options', 'batch'],
    items.map((download) => [
      download.createdAt,
      download.kind,
      download.entries === null ? '' : String(download.entries),
      download.bytes === null ? '' : String(download.bytes),
      download.completedAt ?? 'no',
      optionsInWords(download.options),
      download.batchId ?? 'deleted',
    ]),
  );
}
