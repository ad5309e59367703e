import { DownloadLinkResponse, type FilenameChange, ImageDetail, type ImageView } from '@renamer/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { ProblemLine } from '../ui/problem';
import { KeyHint } from '../ui/shortcuts-dialog';

const SOURCES: Record<FilenameChange['source'], string> = {
  proposal: 'proposed by the analyser',
  user: 'renamed by you',
  revert: 'reverted',
};

/**
 * The selected image in full: its alt text, tags and score reasons, what can be done to it (approve or take the
 * approval back, revert to the uploaded name or the proposal, download it), and every change of its name.
 * `change` makes a change (POST to the image's `path`) that the page can undo, `label` saying what it was.
 */
export function ImageDetailPanel({
  image,
  change,
}: {
  image: ImageView;
  change: (path: string, label: string, json?: unknown) => void;
}) {
  // Read again whenever the image changes, so the history follows each rename.
  const detail = useQuery({
    queryKey: ['image', image.id, image.updatedAt],
    queryFn: () => api(`/api/image/${image.id}`, ImageDetail),
  });
  const download = useMutation({
    mutationFn: () => api(`/api/image/${image.id}/download`, DownloadLinkResponse),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const named = image.status === 'ready' || image.status === 'approved';

  return (
    <section aria-labelledby="image-detail-title">
      <h3 id="image-detail-title">{image.filename ?? image.originalFilename}</h3>
      <p className="meta">
        Uploaded as {image.originalFilename}
        {image.proposedFilename && `, proposed ${image.proposedFilename}`}
      </p>
      {image.altText && <p>Alt text: {image.altText}</p>}
      {image.seo && (
        <ul aria-label="Why this score" className="meta">
          {image.seo.reasons.map((reason) => (
            <li key={reason.rule}>
              {reason.passed ? '✓' : '✗'} {reason.detail}
            </li>
          ))}
        </ul>
      )}
      <p className="actions">
        {image.status === 'approved' ? (
          <button type="button" className="secondary" onClick={() => change('unapprove', 'Unapproved')}>
            Unapprove
          </button>
        ) : (
          <button
            type="button"
            aria-keyshortcuts="a"
            disabled={image.status !== 'ready'}
            onClick={() => change('approve', 'Approved')}
          >
            Approve <KeyHint keys="a" />
          </button>
        )}
        <button
          type="button"
          className="secondary"
          disabled={!named}
          onClick={() => change('revert', 'Reverted', { to: 'original' })}
        >
          Revert to the uploaded name
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!named || !image.proposedFilename || image.proposedFilename === image.filename}
          onClick={() => change('revert', 'Reverted', { to: 'proposed' })}
        >
          Revert to the proposal
        </button>
        <button type="button" className="secondary" onClick={() => download.mutate()}>
          Download image
        </button>
      </p>
      <ProblemLine error={download.error ?? detail.error} />
      <h4>Name history</h4>
      <ol aria-label="Name history">
        {detail.data?.history.map((entry) => (
          <li key={`${entry.at}-${entry.to}`}>
            <span>
              {entry.from ? `${entry.from} → ` : ''}
              {entry.to}
            </span>
            <span className="meta">
              {SOURCES[entry.source]}, {new Date(entry.at).toLocaleString()}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
