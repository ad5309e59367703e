import {
  BatchDownloadResponse,
  BatchPreview,
  COPY_FORMATS,
  type CopyFormat,
  STRIP_MODES,
  type StripMode,
} from '@renamer/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../api/client';
import { ProblemLine } from '../ui/problem';

interface ArchiveOptions {
  approvedOnly: boolean;
  embed: boolean;
  manifest: boolean;
  baseUrl: string;
  strip: StripMode;
  /** Long side in px, or empty for the original size. */
  resize: string;
  format: CopyFormat;
  /** 1..100, or empty for the encoder's default. */
  quality: string;
}

const STRIP_LABELS: Record<StripMode, string> = {
  none: 'Keep all metadata',
  location: 'Remove the location (GPS, city, country)',
  all: 'Remove all metadata (orientation and colour profile kept)',
};

const FORMAT_LABELS: Record<CopyFormat, string> = {
  original: 'Same as the original',
  jpeg: 'JPEG',
  webp: 'WebP',
  avif: 'AVIF',
};

const EXTENSIONS: Partial<Record<CopyFormat, string>> = { jpeg: 'jpg', webp: 'webp', avif: 'avif' };

/** Whether the options ask for web-ready copies (re-encoded from the originals). */
const reencodes = (options: ArchiveOptions) =>
  options.format !== 'original' || options.resize.trim() !== '' || options.quality.trim() !== '';

/** An entry's name as the archive will hold it: with the new format's extension when the copies change format. */
function nameInArchive(filename: string, format: CopyFormat): string {
  const extension = EXTENSIONS[format];
  if (!extension) return filename;
  const dot = filename.lastIndexOf('.');
  return `${dot > 0 ? filename.slice(0, dot) : filename}.${extension}`;
}

/** The download's query string: only the options set (the API reads `true` flags, a base URL with the kit). */
function archiveQuery(options: ArchiveOptions): string {
  const query = new URLSearchParams();
  if (options.approvedOnly) query.set('approvedOnly', 'true');
  if (options.embed) query.set('embed', 'true');
  if (options.manifest) query.set('manifest', 'true');
  if (options.manifest && options.baseUrl.trim()) query.set('baseUrl', options.baseUrl.trim());
  if (options.strip !== 'none') query.set('strip', options.strip);
  if (options.resize.trim()) query.set('resize', options.resize.trim());
  if (options.format !== 'original') query.set('format', options.format);
  if (reencodes(options) && options.quality.trim()) query.set('quality', options.quality.trim());
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
 * kit with redirect maps for a base URL, the metadata stripped, web-ready copies resized and converted), and the archive's contents listed as the server will write them
 * (GET /api/batch/:batchId/preview): the same names, the same order.
 */
export function ArchivePanel({ batchId }: { batchId: string }) {
  const id = useId();
  const [options, setOptions] = useState<ArchiveOptions>({
    approvedOnly: false,
    embed: false,
    manifest: false,
    baseUrl: '',
    strip: 'none',
    resize: '',
    format: 'original',
    quality: '',
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
        <ChoiceSelect
          id={`${id}-strip`}
          label="Metadata in the copies"
          choices={STRIP_MODES}
          labels={STRIP_LABELS}
          value={options.strip}
          onChange={(strip) => set({ strip })}
        />
      </fieldset>
      <fieldset>
        <legend>Web-ready copies</legend>
        <label htmlFor={`${id}-resize`}>Longest side in pixels (empty: original size, never enlarged)</label>
        <input
          id={`${id}-resize`}
          type="number"
          inputMode="numeric"
          min={16}
          max={10000}
          placeholder="1600"
          value={options.resize}
          onChange={(event) => set({ resize: event.target.value })}
        />
        <ChoiceSelect
          id={`${id}-format`}
          label="Format"
          choices={COPY_FORMATS}
          labels={FORMAT_LABELS}
          value={options.format}
          onChange={(format) => set({ format })}
        />
        <label htmlFor={`${id}-quality`}>Quality (1–100, empty: the format’s default)</label>
        <input
          id={`${id}-quality`}
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          placeholder="80"
          value={options.quality}
          onChange={(event) => set({ quality: event.target.value })}
        />
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
            <span>{nameInArchive(entry.filename, options.format)}</span>
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

/** A labelled drop-down of one of `choices`, each shown by its label. */
function ChoiceSelect<T extends string>({
  id,
  label,
  choices,
  labels,
  value,
  onChange,
}: {
  id: string;
  label: string;
  choices: readonly T[];
  labels: Record<T, string>;
  value: T;
  onChange: (choice: T) => void;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as T)}>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {labels[choice]}
          </option>
        ))}
      </select>
    </>
  );
}
