import { BatchDownloadResponse, BatchPreview } from '@renamer/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../api/client';
import { ProblemLine } from '../ui/problem';

interface ArchiveOptions {
  approvedOnly: boolean;
  embed: boolean;
  manifest: boolean;
  baseUrl: string;
}

/** The download's query string: only the options set (the API reads `true` flags, a base URL with the kit). */
function archiveQuery(options: ArchiveOptions): string {
  const query = new URLSearchParams();
  if (options.approvedOnly) query.set('approvedOnly', 'true');
  if (options.embed) query.set('embed', 'true');
  if (options.manifest) query.set('manifest', 'true');
  if (options.manifest && options.baseUrl.trim()) query.set('baseUrl', options.baseUrl.trim());
  const text = query.toString();
  return text ? `?${text}` : '';
}

/**
 * Asks for the batch's archive and lets the browser download it: the link needs no credentials and is valid an
 * hour, so the archive streams straight to disk.
 */
export async function downloadArchive(batchId: string, query = ''): Promise<void> {
  const { url } = await api(`/api/batch/${batchId}/download${query}`, BatchDownloadResponse, { method: 'POST' });
  window.location.assign(url);
}

/** The files the rename kit adds, as the options choose them (the API's `renamer/` folder). */
function kitFiles({ manifest, baseUrl }: ArchiveOptions): string[] {
  if (!manifest) return [];
  const base = baseUrl.trim();
  return [
    'renamer/manifest.csv (old and new names, titles, alt text, keywords)',
    ...(base ? ['renamer/redirects.nginx.conf, redirects.nginx-server.conf, .htaccess and redirects.csv'] : []),
    ...(/^https?:\/\//.test(base) ? ['renamer/image-sitemap.xml'] : []),
  ];
}

/**
 * "Download ZIP" with its options beside it (approved only or all, metadata written into the copies, the rename
 * kit with redirect maps for a base URL), and the archive's contents listed as the server will write them
 * (GET /api/batch/:batchId/preview): the same names, the same order.
 */
export function ArchivePanel({ batchId }: { batchId: string }) {
  const id = useId();
  const [options, setOptions] = useState<ArchiveOptions>({
    approvedOnly: false,
    embed: false,
    manifest: false,
    baseUrl: '',
  });
  const set = (change: Partial<ArchiveOptions>) => setOptions({ ...options, ...change });
  const preview = useQuery({
    queryKey: ['batch-images', batchId, 'archive', options.approvedOnly],
    queryFn: () =>
      api(`/api/batch/${batchId}/preview${options.approvedOnly ? '?approvedOnly=true' : ''}`, BatchPreview),
  });
  const download = useMutation({ mutationFn: () => downloadArchive(batchId, archiveQuery(options)) });
  const entries = preview.data?.entries ?? [];
  const kit = kitFiles(options);

  return (
    <section aria-labelledby={`${id}-title`} className="archive">
      <h3 id={`${id}-title`}>Download as a ZIP</h3>
      <fieldset>
        <legend>What goes in</legend>
        <label>
          <input
            type="checkbox"
            checked={options.approvedOnly}
            onChange={(event) => set({ approvedOnly: event.target.checked })}
          />{' '}
          Approved images only
        </label>
        <label>
          <input type="checkbox" checked={options.embed} onChange={(event) => set({ embed: event.target.checked })} />{' '}
          Write the title, alt text and keywords into each copy
        </label>
        <label>
          <input
            type="checkbox"
            checked={options.manifest}
            onChange={(event) => set({ manifest: event.target.checked })}
          />{' '}
          Add the rename kit (manifest and redirect maps)
        </label>
        {options.manifest && (
          <>
            <label htmlFor={`${id}-base`}>Where the images are online today (for the redirects, optional)</label>
            <input
              id={`${id}-base`}
              placeholder="https://shop.example/images/"
              value={options.baseUrl}
              onChange={(event) => set({ baseUrl: event.target.value })}
            />
          </>
        )}
      </fieldset>
      <button type="button" disabled={entries.length === 0 || download.isPending} onClick={() => download.mutate()}>
        Download ZIP
      </button>
      <ProblemLine error={download.error ?? preview.error} />
      <p>
        {entries.length} {entries.length === 1 ? 'image' : 'images'}
        {kit.length > 0 ? ' and the rename kit' : ''} will be in the archive
        {entries.length === 0 && (options.approvedOnly ? ': approve some first.' : ': none is named yet.')}
      </p>
      {/* Scrolls within its box past 20rem: focusable, so the keyboard scrolls it too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus to scroll by keys. */}
      <ul aria-label="Contents of the archive" className="archive-contents" tabIndex={0}>
        {entries.map((entry) => (
          <li key={entry.imageId}>
            <span>{entry.filename}</span>
            <span className="meta">
              from {entry.originalFilename}
              {entry.approved ? ' · approved' : ''}
            </span>
          </li>
        ))}
        {kit.map((file) => (
          <li key={file}>
            <span>{file}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
