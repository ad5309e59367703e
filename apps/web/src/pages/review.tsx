import {
  ApproveBatchResponse,
  BatchStatusResponse,
  FilenameCheckResponse,
  ImageDetail,
  ImageList,
  type ImageView,
} from '@renamer/contracts';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { api } from '../api/client';
import { connectionNotice, isFinished, useLiveBatches } from '../api/live-batches';
import { ProblemLine } from '../ui/problem';
import { KeyHint, type Shortcut, ShortcutsDialog } from '../ui/shortcuts-dialog';
import { ArchivePanel } from './archive-panel';
import { ImageDetailPanel } from './image-detail';
import { KeywordsPanel } from './keywords-panel';
import { NamingPanel } from './naming-panel';

const PAGE = 100;
const ROW_HEIGHT = 88;
const UNDO_MS = 5_000;

type Sort = 'upload' | 'score';
/** What `u` puts back: an approval (unapproved again), or a rename (the name it had). */
type Undo = { label: string; run: () => Promise<unknown> };

const SHORTCUTS: Shortcut[] = [
  ['↑ ↓ or k j', 'move'],
  ['Enter', 'rename the image (Enter saves, Esc leaves)'],
  ['a', 'approve, and go to the next image to review'],
  ['Shift+A', 'approve every image on the list'],
  ['u', 'undo the last change'],
  ['x', 'mark the image for naming again, or unmark it'],
  ['?', 'these shortcuts (Esc closes them)'],
  ['Esc', 'back to the batches'],
];

/**
 * A batch's images, reviewed at keyboard speed: a virtualised list (a thousand rows stay smooth) of previews
 * with their names, scores, tags and alt text, lowest scores first (the names that need a person: a name made of
 * general words scores low), or as uploaded on request. The rename field checks the
 * name with the server's own rules as it is typed (POST /api/image/filename-check).
 */
export function ReviewPage({ batchId, onLeave }: { batchId: string; onLeave: () => void }) {
  const queries = useQueryClient();
  const [sort, setSort] = useState<Sort>('score');
  const [selected, setSelected] = useState(0);
  const [renaming, setRenaming] = useState(false);
  const [help, setHelp] = useState(false);
  const [undo, setUndo] = useState<Undo | undefined>();
  const [failure, setFailure] = useState<unknown>();
  /** The images marked for "Name again" (x, or the checkbox beside the selected image). */
  const [marked, setMarked] = useState<ReadonlySet<string>>(new Set());
  const toggleMark = (imageId: string) =>
    setMarked((current) => {
      const next = new Set(current);
      if (!next.delete(imageId)) next.add(imageId);
      return next;
    });
  const listRef = useRef<HTMLDivElement>(null);
  const key = ['batch-images', batchId, 'review', sort];
  const batch = useQuery({
    queryKey: ['batch', batchId],
    queryFn: () => api(`/api/batch/${batchId}/status`, BatchStatusResponse),
  });
  // Followed live only while the analyser is still at work: afterwards every change is this page's own.
  const notice = connectionNotice(useLiveBatches(batch.data && !isFinished(batch.data.status) ? [batchId] : []));

  const pages = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) =>
      api(
        `/api/image/batch/${batchId}?limit=${PAGE}&sort=${sort}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
        ImageList,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const images = pages.data?.pages.flatMap((page) => page.items) ?? [];
  const current = images[selected];

  const rows = useVirtualizer({
    count: images.length,
    getScrollElement: () => listRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  // The next page is asked for half a page ahead of the rows shown or the selection, so that holding `j` never
  // reaches the end of what is loaded.
  const reach = Math.max(rows.getVirtualItems().at(-1)?.index ?? 0, selected);
  useEffect(() => {
    if (reach >= images.length - PAGE / 2 && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  }, [reach, images.length, pages]);
  useEffect(() => {
    if (undo === undefined) return;
    const timer = setTimeout(() => setUndo(undefined), UNDO_MS);
    return () => clearTimeout(timer);
  }, [undo]);

  const replace = (image: ImageView) =>
    queries.setQueryData<typeof pages.data>(
      key,
      (data) =>
        data && {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((item) => (item.id === image.id ? image : item)),
          })),
        },
    );
  /** A change to one image: its row replaced in place, the archive's listing read again. */
  const act = async (path: string, init: { method: string; json?: unknown }) => {
    replace(await api(path, ImageDetail, init));
    void queries.invalidateQueries({ queryKey: ['batch-images', batchId, 'archive'] });
  };
  const move = (to: number) => {
    const index = Math.max(0, Math.min(images.length - 1, to));
    setSelected(index);
    rows.scrollToIndex(index);
  };

  async function approve(image: ImageView) {
    await act(`/api/image/${image.id}/approve`, { method: 'POST' });
    setUndo({
      label: `Approved ${image.filename}`,
      run: () => act(`/api/image/${image.id}/unapprove`, { method: 'POST' }),
    });
    const next = images.findIndex((item, index) => index > selected && item.status === 'ready');
    if (next >= 0) move(next);
  }

  async function approveAll() {
    const ready = images.filter((image) => image.status === 'ready');
    if (ready.length === 0) return;
    await api(`/api/image/batch/${batchId}/approve`, ApproveBatchResponse, {
      method: 'POST',
      json: { imageIds: ready.map((image) => image.id) },
    });
    await queries.invalidateQueries({ queryKey: ['batch-images', batchId] });
  }

  async function rename(image: ImageView, filename: string) {
    const before = image.filename;
    await act(`/api/image/${image.id}/filename`, { method: 'PUT', json: { filename } });
    if (before) {
      setUndo({
        label: `Renamed ${before}`,
        run: () => act(`/api/image/${image.id}/filename`, { method: 'PUT', json: { filename: before } }),
      });
    }
    setRenaming(false);
    listRef.current?.focus();
  }

  const onKey = (event: KeyboardEvent) => {
    if (renaming || !current) return;
    const keys = new Map<string, () => unknown>([
      ['ArrowDown', () => move(selected + 1)],
      ['j', () => move(selected + 1)],
      ['ArrowUp', () => move(selected - 1)],
      ['k', () => move(selected - 1)],
      ['Enter', () => current.filename && setRenaming(true)],
      ['a', () => current.status === 'ready' && approve(current)],
      ['A', () => approveAll()],
      ['u', () => undo?.run().then(() => setUndo(undefined))],
      ['x', () => toggleMark(current.id)],
      // The dialog is modal: while it is open the list is inert, and the browser closes it on Esc.
      ['?', () => setHelp(true)],
      ['Escape', () => onLeave()],
    ]);
    const run = keys.get(event.key);
    if (!run) return;
    event.preventDefault();
    perform(run);
  };
  /** A key's or a button's action, its failure shown beside the list. */
  const perform = (run: () => unknown) => {
    setFailure(undefined);
    void Promise.resolve().then(run).catch(setFailure);
  };

  return (
    <section aria-labelledby="review-title">
      <h2 id="review-title">Review the names</h2>
      {notice && <p role="status">{notice}</p>}
      <label>
        Order{' '}
        <select value={sort} onChange={(event) => setSort(event.target.value as Sort)}>
          <option value="score">lowest score first</option>
          <option value="upload">as uploaded</option>
        </select>
      </label>
      {/* The list's keys as buttons, each with its key beside its name. */}
      <p className="actions">
        <button
          type="button"
          aria-keyshortcuts="a"
          disabled={current?.status !== 'ready'}
          onClick={() => current && perform(() => approve(current))}
        >
          Approve and next <KeyHint keys="a" />
        </button>
        <button type="button" aria-keyshortcuts="?" onClick={() => setHelp(true)}>
          Keyboard shortcuts <KeyHint keys="?" />
        </button>
      </p>
      <ShortcutsDialog open={help} shortcuts={SHORTCUTS} onClose={() => setHelp(false)} />
      <div className="review-layout">
        <div
          ref={listRef}
          className="review-list"
          role="listbox"
          aria-label="Images of the batch"
          aria-activedescendant={current ? `image-${current.id}` : undefined}
          tabIndex={0}
          onKeyDown={onKey}
        >
          <div style={{ height: rows.getTotalSize(), position: 'relative' }}>
            {rows.getVirtualItems().map((row) => {
              const image = images[row.index]!;
              return (
                <div
                  key={image.id}
                  id={`image-${image.id}`}
                  role="option"
                  // Reached through the listbox's aria-activedescendant, never by Tab.
                  tabIndex={-1}
                  aria-selected={row.index === selected}
                  className="review-row"
                  style={{ position: 'absolute', top: row.start, height: ROW_HEIGHT, width: '100%' }}
                  onClick={() => setSelected(row.index)}
                  // The listbox handles every key for its options.
                  onKeyDown={() => undefined}
                >
                  <ImageRow
                    image={image}
                    marked={marked.has(image.id)}
                    renaming={renaming && row.index === selected}
                    onRename={(filename) => rename(image, filename).catch(setFailure)}
                    onCancel={() => {
                      setRenaming(false);
                      listRef.current?.focus();
                    }}
                  />
                </div>
              );
            })}
          </div>
        </div>
        {/* Beside the list on a wide screen, under it on a narrow one. */}
        <div className="review-side">
          <ProblemLine error={failure ?? pages.error} />
          {current && (
            <label className="inline">
              <input
                type="checkbox"
                aria-keyshortcuts="x"
                checked={marked.has(current.id)}
                onChange={() => toggleMark(current.id)}
              />{' '}
              Mark {current.filename ?? current.originalFilename} for naming again <KeyHint keys="x" />
            </label>
          )}
          {current && <ImageDetailPanel image={current} act={act} />}
        </div>
      </div>
      <NamingPanel batchId={batchId} images={images} marked={[...marked]} onNamedAgain={() => setMarked(new Set())} />
      <KeywordsPanel batchId={batchId} imageId={current?.id} />
      <ArchivePanel batchId={batchId} />
      {undo && (
        <div role="status" className="toast">
          {undo.label}. Press <kbd>u</kbd> to undo.
        </div>
      )}
    </section>
  );
}

function ImageRow(props: {
  image: ImageView;
  marked: boolean;
  renaming: boolean;
  onRename: (filename: string) => void;
  onCancel: () => void;
}) {
  const { image } = props;
  return (
    <>
      {image.filename ? (
        <img src={`/api/image/${image.id}/preview`} alt={image.altText ?? ''} width={64} height={64} loading="lazy" />
      ) : (
        <span className="placeholder" />
      )}
      <div>
        {props.renaming ? (
          <RenameField image={image} onSave={props.onRename} onCancel={props.onCancel} />
        ) : (
          <strong data-testid="filename">{image.filename ?? image.originalFilename}</strong>
        )}
        <div className="meta">
          <span data-testid="image-status">{image.status}</span>
          {props.marked && <span data-testid="marked"> · marked for naming again</span>}
          {image.seo && (
            <span title={image.seo.reasons.map((reason) => reason.detail).join('\n')}> · score {image.seo.score}</span>
          )}
          {image.visionTags.length > 0 && (
            <span>
              {' '}
              ·{' '}
              {image.visionTags
                .slice(0, 5)
                .map((tag) => tag.label)
                .join(', ')}
            </span>
          )}
        </div>
      </div>
    </>
  );
}

/** The new name, checked by the server's rules as it is typed (what it would become, its score, why not). */
function RenameField({
  image,
  onSave,
  onCancel,
}: {
  image: ImageView;
  onSave: (name: string) => void;
  onCancel: () => void;
}) {
  const [typed, setTyped] = useState(image.filename ?? '');
  const [debounced, setDebounced] = useState(typed);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(typed), 150);
    return () => clearTimeout(timer);
  }, [typed]);
  const check = useQuery({
    queryKey: ['filename-check', image.id, debounced],
    queryFn: () =>
      api('/api/image/filename-check', FilenameCheckResponse, {
        method: 'POST',
        json: { filename: debounced, imageId: image.id },
      }),
  });
  const onKey = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Escape') onCancel();
    if (event.key === 'Enter' && check.data?.valid && debounced === typed) onSave(typed);
  };
  return (
    <div>
      <label>
        New name
        <input
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={onKey}
          ref={(input) => input?.focus()}
        />
      </label>
      <p aria-live="polite" className="meta">
        {check.data &&
          (check.data.valid
            ? `→ ${check.data.filename} · score ${check.data.seo?.score}`
            : check.data.errors.map((error) => error.message).join(' '))}
      </p>
    </div>
  );
}
