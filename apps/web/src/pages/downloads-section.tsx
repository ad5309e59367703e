import { DownloadList, type DownloadView } from '@renamer/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { api } from '../api/client';
import { formatBytes, formatTime } from '../ui/format';
import { explain } from '../ui/problem';

const STRIPPED = { none: undefined, location: 'location removed', all: 'metadata removed' } as const;

/** How the copies were made, in words: "as uploaded" when nothing changed them. */
export function describeOptions(options: DownloadView['options']): string {
  const parts = [
    options.embed ? 'SEO fields embedded' : undefined,
    STRIPPED[options.strip],
    options.resize ? `at most ${options.resize} px` : undefined,
    options.format && options.format !== 'original' ? options.format.toUpperCase() : undefined,
    options.quality ? `quality ${options.quality}` : undefined,
    options.approvedOnly ? 'approved only' : undefined,
    options.manifest ? 'with the rename kit' : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'as uploaded';
}

function what(download: DownloadView): string {
  if (download.kind === 'image') return 'One image';
  const count = download.entries ?? 0;
  return `ZIP of ${count} ${count === 1 ? 'image' : 'images'}`;
}

function sent(download: DownloadView): string {
  if (download.completedAt) return `${formatBytes(download.bytes ?? 0)}, complete`;
  if (download.bytes) return `${formatBytes(download.bytes)} sent, not complete`;
  return 'not fetched through the service yet';
}

/** The person's recent downloads (GET /api/downloads): what each held, when, its size and how it was made. */
export function DownloadsSection() {
  const id = useId();
  const downloads = useInfiniteQuery({
    queryKey: ['downloads'],
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: '20' });
      if (pageParam) query.set('cursor', pageParam);
      return api(`/api/downloads?${query}`, DownloadList);
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = downloads.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Downloads</h2>
      {downloads.error && <p className="meta">The downloads could not be listed: {explain(downloads.error)}</p>}
      {downloads.data && items.length === 0 && (
        <p className="empty">No downloads yet: the images and archives you download from a batch are listed here.</p>
      )}
      {items.length > 0 && (
        <ul aria-label="Your downloads">
          {items.map((download) => (
            <li key={download.id}>
              <span>
                {what(download)}, {formatTime(download.createdAt)}: {sent(download)};{' '}
                {describeOptions(download.options)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {downloads.hasNextPage && (
        <button
          type="button"
          className="secondary"
          disabled={downloads.isFetchingNextPage}
          onClick={() => void downloads.fetchNextPage()}
        >
          Show older downloads
        </button>
      )}
    </section>
  );
}
