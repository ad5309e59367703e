import {
  ApproveBatchResponse,
  BatchStatusResponse,
  ImageDetail,
  ImageList,
  type ImageView,
  MAX_BULK_IMAGES,
  UnapproveBatchResponse,
} from '@renamer/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api/client';
import { connectionNotice, isFinished, useLiveBatches } from '../api/live-batches';
import { ImageBrowser, type PickMode, type ReviewView } from '../review/image-browser';
import { neighboursOf, PhotoPanel } from '../review/photo-panel';
import { RenameField } from '../review/rename-field';
import {
  PAGE,
  type ReviewSort,
  type ReviewTab,
  replaceImage,
  TABS,
  tabCounts,
  useReviewImages,
} from '../review/review-images';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useNarrow } from '../ui/narrow';
import { ProblemLine } from '../ui/problem';
import { KeyHint, type Shortcut, ShortcutsDialog } from '../ui/shortcuts-dialog';
import { UndoToast, useUndo } from '../ui/undo';
import { ArchivePanel } from './archive-panel';
import { ImageDetailPanel } from './image-detail';
import { KeywordsPanel } from './keywords-panel';
import { NamingPanel } from './naming-panel';
import './review.css';

const VIEW_KEY = 'renamer.review.view';
const VIEWS: { view: ReviewView; label: string; key: string }[] = [
  { view: 'list', label: 'List', key: 'l' },
  { view: 'grid', label: 'Grid', key: 'g' },
];

// The batch's own panels under the list, drawn again only when what they show changes (never for a move of the
// selection: the archive's listing alone can hold a thousand entries).
const BatchNaming = memo(NamingPanel);
const BatchArchive = memo(ArchivePanel);

const SHORTCUTS: Shortcut[] = [
  ['↑ ↓ or k j', 'move (in the grid, ← → too)'],
  ['Enter', 'rename the image (Enter saves, Esc leaves)'],
  ['a', 'approve, and go to the next image to review'],
  ['Shift+A', 'approve every image to review (asks first)'],
  ['u', 'undo the last change'],
  ['x', 'select the image, or take it out of the selection'],
  ['g / l', 'grid view / list view'],
  ['?', 'these shortcuts (Esc closes them)'],
  ['Esc', 'back to the batches'],
];

/** Runs `change` over `ids` a bulk request's worth at a time, adding up what each changed. */
async function inChunks(ids: readonly string[], change: (imageIds: string[]) => Promise<number>) {
  let changed = 0;
  for (let start = 0; start < ids.length; start += MAX_BULK_IMAGES) {
    changed += await change(ids.slice(start, start + MAX_BULK_IMAGES));
  }
  return changed;
}

const storedView = (): ReviewView => (localStorage.getItem(VIEW_KEY) === 'grid' ? 'grid' : 'list');

/**
 * A batch's images, reviewed at keyboard speed or by touch: tabs by status with counts, a virtualised list or
 * grid (a thousand stay smooth), the selected photo large beside them (a panel from the bottom on a phone) with
 * its old and new name, rename by click, tap or Enter, approve one, a selection or all, and every change undoable
 * for ten seconds.
 */
export function ReviewPage({ batchId, onLeave }: { batchId: string; onLeave: () => void }) {
  const queries = useQueryClient();
  const narrow = useNarrow();
  const [sort, setSort] = useState<ReviewSort>('score');
  const [tab, setTab] = useState<ReviewTab>('all');
  const [view, setView] = useState<ReviewView>(storedView);
  /** The selected image, by id: it stays selected when the list around it changes. */
  const [selectedId, setSelectedId] = useState<string>();
  const [renaming, setRenaming] = useState(false);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [help, setHelp] = useState(false);
  const [confirming, setConfirming] = useState<'all' | 'chosen'>();
  const [failure, setFailure] = useState<unknown>();
  /** The images selected (x, their boxes, a shift-click range): for "Approve selected" and "Name again". */
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  /** Where a shift-click range starts: the last image picked or ticked. */
  const anchor = useRef<string | undefined>(undefined);
  /** Where the selection was: when its image leaves the list (approved under "To review"), the one now there. */
  const lastIndex = useRef(0);
  const approving = useRef(false);
  const columns = useRef(1);
  const scrollRef = useRef<HTMLDivElement>(null);
  const scrollTo = useRef<((index: number) => void) | null>(null);
  const { offered, offer, undo, dismiss } = useUndo();
  const onColumns = useCallback((count: number) => {
    columns.current = count;
  }, []);

  const batch = useQuery({
    queryKey: ['batch', batchId],
    queryFn: () => api(`/api/batch/${batchId}/status`, BatchStatusResponse),
  });
  // Followed live only while the analyser is still at work: afterwards every change is this page's own.
  const notice = connectionNotice(useLiveBatches(batch.data && !isFinished(batch.data.status) ? [batchId] : []));
  const { images, pages } = useReviewImages(batchId, tab, sort);
  // Counted once the list the person sees has come, so it never delays it.
  const low = useReviewImages(batchId, 'low', 'score', pages.isSuccess);
  const counts = tabCounts(batch.data, low.pages.isSuccess && !low.pages.hasNextPage ? low.images.length : undefined);
  const found = selectedId === undefined ? -1 : images.findIndex((image) => image.id === selectedId);
  const selected = found >= 0 ? found : Math.max(0, Math.min(lastIndex.current, images.length - 1));
  lastIndex.current = selected;
  const current = images[selected];
  // The panel follows the selection at a lower priority: holding `j` moves the list at once, the photo after.
  const shown = useDeferredValue(current);

  // The next page is asked for half a page ahead of what is drawn or selected, so holding `j` never runs out.
  const [reach, setReach] = useState(0);
  useEffect(() => {
    if (Math.max(reach, selected) >= images.length - PAGE / 2 && pages.hasNextPage && !pages.isFetchingNextPage) {
      void pages.fetchNextPage();
    }
  }, [reach, selected, images.length, pages]);
  useEffect(() => localStorage.setItem(VIEW_KEY, view), [view]);

  const refreshCounts = () => {
    void queries.invalidateQueries({ queryKey: ['batch', batchId] });
    void queries.invalidateQueries({ queryKey: ['batch-images', batchId, 'archive'] });
  };
  /** A change to one image: its row replaced in place, the counts and the archive's listing read again. */
  const act = async (path: string, init: { method: string; json?: unknown }) => {
    const image = await api(path, ImageDetail, init);
    replaceImage(queries, batchId, image);
    refreshCounts();
    return image;
  };
  const rereadAll = async () => {
    await queries.invalidateQueries({ queryKey: ['batch-images', batchId] });
    await queries.invalidateQueries({ queryKey: ['batch', batchId] });
  };
  const select = (index: number) => {
    lastIndex.current = index;
    setSelectedId(images[index]?.id);
    setRenaming(false);
  };
  const move = (to: number) => {
    const index = Math.max(0, Math.min(images.length - 1, to));
    select(index);
    scrollTo.current?.(index);
  };
  /** What an image's own undo does: from how a change left it (`after`), its name and approval as they were. */
  const restore = (before: ImageView, after: ImageView) => async () => {
    let now = after;
    if (now.filename !== before.filename) {
      now = await act(`/api/image/${before.id}/filename`, { method: 'PUT', json: { filename: before.filename } });
    }
    if (before.status === 'approved' && now.status === 'ready') {
      await act(`/api/image/${before.id}/approve`, { method: 'POST' });
    }
    if (before.status === 'ready' && now.status === 'approved') {
      await act(`/api/image/${before.id}/unapprove`, { method: 'POST' });
    }
  };

  /** Approves the image and moves on at once to the next one to review (a second `a` meanwhile waits its turn). */
  async function approve(image: ImageView) {
    if (approving.current) return;
    approving.current = true;
    const next = images.findIndex((item, index) => index > selected && item.status === 'ready');
    if (next >= 0) move(next);
    try {
      const after = await act(`/api/image/${image.id}/approve`, { method: 'POST' });
      offer({ label: `Approved ${image.filename}`, run: restore(image, after) });
    } finally {
      approving.current = false;
    }
  }

  /** Approves the ready images listed, or every ready image of the batch (read from the server, all pages). */
  async function approveMany(only?: readonly ImageView[]) {
    const ids = only ? only.filter((image) => image.status === 'ready').map((image) => image.id) : await readyIds();
    const approved = await inChunks(ids, async (imageIds) => {
      const answer = await api(`/api/image/batch/${batchId}/approve`, ApproveBatchResponse, {
        method: 'POST',
        json: { imageIds },
      });
      return answer.approved;
    });
    await rereadAll();
    offer({
      label: `Approved ${approved} ${approved === 1 ? 'image' : 'images'}`,
      run: async () => {
        await inChunks(ids, async (imageIds) => {
          const answer = await api(`/api/image/batch/${batchId}/unapprove`, UnapproveBatchResponse, {
            method: 'POST',
            json: { imageIds },
          });
          return answer.unapproved;
        });
        await rereadAll();
      },
    });
    setChosen(new Set());
  }
  async function readyIds() {
    const ids: string[] = [];
    let cursor = '';
    do {
      const page = await api(
        `/api/image/batch/${batchId}?status=ready&limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        ImageList,
      );
      ids.push(...page.items.map((image) => image.id));
      cursor = page.nextCursor ?? '';
    } while (cursor);
    return ids;
  }

  async function rename(image: ImageView, filename: string) {
    const after = await act(`/api/image/${image.id}/filename`, { method: 'PUT', json: { filename } });
    offer({ label: `Renamed ${image.filename}`, run: restore(image, after) });
    leaveRename();
  }
  const leaveRename = () => {
    setRenaming(false);
    scrollRef.current?.focus({ preventScroll: true });
  };
  /** A change from the detail panel (approve, unapprove, revert), undoable like the rest. */
  const change = async (image: ImageView, path: string, label: string, json?: unknown) => {
    const after = await act(`/api/image/${image.id}/${path}`, { method: 'POST', ...(json ? { json } : {}) });
    offer({ label: `${label} ${image.filename}`, run: restore(image, after) });
  };

  const toggle = useCallback(
    (imageId: string) =>
      setChosen((now) => {
        const next = new Set(now);
        if (!next.delete(imageId)) next.add(imageId);
        return next;
      }),
    [],
  );
  /** Ticks or unticks an image (its box, `x`, Ctrl-click); a later shift-click ranges from it. */
  const tick = (imageId: string) => {
    anchor.current = imageId;
    toggle(imageId);
  };
  const pick = (index: number, mode: PickMode) => {
    const image = images[index];
    if (!image) return;
    if (mode === 'range') {
      const from = Math.max(
        0,
        images.findIndex((item) => item.id === anchor.current),
      );
      const [start, end] = [Math.min(from, index), Math.max(from, index)];
      setChosen((now) => new Set([...now, ...images.slice(start, end + 1).map((item) => item.id)]));
    } else if (mode === 'toggle') tick(image.id);
    else anchor.current = image.id;
    select(index);
    if (narrow && mode === 'one') setSheetOpen(true);
    else scrollRef.current?.focus({ preventScroll: true });
  };
  // The phone's panel takes the focus as it opens (its first control, unless the rename field has it), so the keys
  // and a screen reader are in it.
  const sheetClose = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (sheetOpen && !renaming) sheetClose.current?.focus({ preventScroll: true });
  }, [sheetOpen, renaming]);
  const closeSheet = () => {
    setSheetOpen(false);
    setRenaming(false);
    scrollRef.current?.focus({ preventScroll: true });
  };
  const startRename = (index: number) => {
    select(index);
    if (images[index]?.filename) setRenaming(true);
    if (narrow) setSheetOpen(true);
  };

  // Stable for the rows (each drawn again only when its own state changes), calling the latest of each.
  const latest = useRef({ pick, startRename, tick });
  latest.current = { pick, startRename, tick };
  const rows = useMemo(
    () => ({
      pick: (index: number, mode: PickMode) => latest.current.pick(index, mode),
      startRename: (index: number) => latest.current.startRename(index),
      tick: (imageId: string) => latest.current.tick(imageId),
    }),
    [],
  );

  const onKey = (event: KeyboardEvent) => {
    if (renaming || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = new Map<string, () => unknown>([
      ['ArrowDown', () => move(selected + columns.current)],
      ['j', () => move(selected + 1)],
      ['ArrowUp', () => move(selected - columns.current)],
      ['k', () => move(selected - 1)],
      ...(view === 'grid'
        ? ([
            ['ArrowRight', () => move(selected + 1)],
            ['ArrowLeft', () => move(selected - 1)],
          ] as const)
        : []),
      ['Enter', () => current && startRename(selected)],
      ['a', () => current?.status === 'ready' && approve(current)],
      ['A', () => setConfirming('all')],
      ['u', () => undo()],
      ['x', () => current && tick(current.id)],
      ['g', () => setView('grid')],
      ['l', () => setView('list')],
      // The dialog is modal: while it is open the list is inert, and the browser closes it on Esc.
      ['?', () => setHelp(true)],
      ['Escape', () => (sheetOpen ? closeSheet() : onLeave())],
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
  /** Another tab or order: a list of its own, from its top, with nothing carried over from the last. */
  const changeList = (change: () => void) => {
    change();
    setSelectedId(undefined);
    lastIndex.current = 0;
    anchor.current = undefined;
    setChosen(new Set());
    setRenaming(false);
    scrollTo.current?.(0);
  };
  const chosenImages = images.filter((image) => chosen.has(image.id));
  const marked = useMemo(() => [...chosen], [chosen]);
  const clearChosen = useCallback(() => setChosen(new Set()), []);
  const toReview = counts.review ?? 0;

  return (
    <section aria-labelledby="review-title" className="review">
      <h2 id="review-title">Review the names{batch.data?.name ? `: ${batch.data.name}` : ''}</h2>
      {notice && <p role="status">{notice}</p>}
      <div className="review-tools">
        {/* Filters, as pressed buttons: each shows its images in the one list below. */}
        <div className="tabs">
          {TABS.map(({ tab: each, label }) => (
            <button
              key={each}
              type="button"
              className="secondary"
              aria-pressed={tab === each}
              aria-controls="review-images"
              onClick={() => changeList(() => setTab(each))}
            >
              {label} <span className="count">{counts[each] ?? '…'}</span>
            </button>
          ))}
        </div>
        <label className="inline">
          Order{' '}
          <select
            value={sort}
            disabled={tab === 'low'}
            onChange={(event) => changeList(() => setSort(event.target.value as ReviewSort))}
          >
            <option value="score">lowest score first</option>
            <option value="upload">as uploaded</option>
          </select>
        </label>
        <div className="view-switch">
          {VIEWS.map(({ view: each, label, key }) => (
            <button
              key={each}
              type="button"
              className="secondary"
              aria-pressed={view === each}
              aria-keyshortcuts={key}
              onClick={() => setView(each)}
            >
              {label} <KeyHint keys={key} />
            </button>
          ))}
        </div>
      </div>
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
        <button
          type="button"
          className="secondary"
          aria-keyshortcuts="Shift+A"
          disabled={toReview === 0}
          onClick={() => setConfirming('all')}
        >
          Approve all <KeyHint keys="Shift+A" />
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!chosenImages.some((image) => image.status === 'ready')}
          onClick={() => setConfirming('chosen')}
        >
          Approve selected ({chosen.size})
        </button>
        {chosen.size > 0 && (
          <button type="button" className="secondary" onClick={() => setChosen(new Set())}>
            Clear the selection
          </button>
        )}
        <button type="button" className="secondary" aria-keyshortcuts="?" onClick={() => setHelp(true)}>
          Keyboard shortcuts <KeyHint keys="?" />
        </button>
      </p>
      <ShortcutsDialog open={help} shortcuts={SHORTCUTS} onClose={() => setHelp(false)} />
      <ConfirmDialog
        open={confirming !== undefined}
        title={confirming === 'all' ? 'Approve every image to review?' : 'Approve the selected images?'}
        confirm={
          confirming === 'all'
            ? `Approve ${toReview} ${toReview === 1 ? 'image' : 'images'}`
            : `Approve ${chosenImages.filter((image) => image.status === 'ready').length} selected`
        }
        onCancel={() => {
          setConfirming(undefined);
          scrollRef.current?.focus({ preventScroll: true });
        }}
        onConfirm={() => {
          const only = confirming === 'chosen' ? chosenImages : undefined;
          setConfirming(undefined);
          scrollRef.current?.focus({ preventScroll: true });
          perform(() => approveMany(only));
        }}
      >
        <p>
          {confirming === 'all'
            ? `${toReview} ${toReview === 1 ? 'image keeps its name' : 'images keep their names'} and ${toReview === 1 ? 'is' : 'are'} marked approved.`
            : 'The selected images that are to review keep their names and are marked approved.'}{' '}
          You can undo it for ten seconds.
        </p>
      </ConfirmDialog>
      <ProblemLine error={failure ?? pages.error} />
      <div className={`review-layout ${view}`} id="review-images">
        <div className="review-main">
          {images.length === 0 && pages.isSuccess && <p className="empty">No image here.</p>}
          <ImageBrowser
            images={images}
            view={view}
            current={selected}
            chosen={chosen}
            scrollRef={scrollRef}
            scrollTo={scrollTo}
            onPick={rows.pick}
            onToggle={rows.tick}
            onRename={rows.startRename}
            onKeyDown={onKey}
            onReach={setReach}
            onColumns={onColumns}
          />
        </div>
        {/* Beside the list on a wide screen; a panel from the bottom on a phone, opened by a tap. */}
        {(!narrow || sheetOpen) && shown && (
          <div
            className={narrow ? 'review-side sheet' : 'review-side'}
            {...(narrow
              ? {
                  role: 'dialog',
                  'aria-label': shown.filename ?? shown.originalFilename,
                  // Esc closes it from anywhere inside (the rename field answers Esc itself).
                  onKeyDown: (event: KeyboardEvent) => event.key === 'Escape' && closeSheet(),
                }
              : {})}
          >
            {narrow && (
              <button type="button" className="secondary sheet-close" onClick={closeSheet} ref={sheetClose}>
                Close
              </button>
            )}
            <PhotoPanel image={shown} neighbours={neighboursOf(images, Math.max(0, images.indexOf(shown)))} />
            {renaming ? (
              <RenameField key={shown.id} image={shown} onSave={(name) => rename(shown, name)} onCancel={leaveRename} />
            ) : (
              <p className="actions">
                <button
                  type="button"
                  className="secondary"
                  disabled={!shown.filename}
                  onClick={() => startRename(selected)}
                >
                  Rename <KeyHint keys="Enter" />
                </button>
                <label className="inline">
                  <input
                    type="checkbox"
                    aria-keyshortcuts="x"
                    checked={chosen.has(shown.id)}
                    onChange={() => tick(shown.id)}
                  />{' '}
                  Selected <KeyHint keys="x" />
                </label>
              </p>
            )}
            <ImageDetailPanel
              image={shown}
              change={(path, label, json) => perform(() => change(shown, path, label, json))}
            />
          </div>
        )}
      </div>
      <BatchNaming batchId={batchId} images={images} marked={marked} onNamedAgain={clearChosen} />
      <KeywordsPanel batchId={batchId} imageId={shown?.id} onChanged={offer} />
      <BatchArchive batchId={batchId} />
      <UndoToast offered={offered} onUndo={() => perform(undo)} onDismiss={dismiss} />
    </section>
  );
}
