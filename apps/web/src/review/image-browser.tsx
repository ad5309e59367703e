import type { ImageView } from '@renamer/contracts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type MouseEvent, memo, type RefObject, useEffect, useState } from 'react';

export type ReviewView = 'list' | 'grid';

/** A grid card's width, the gap included; the grid fits as many columns as the width takes. */
const CARD_PX = 168;

/** How a click picks: alone, a range from the last pick (Shift), or one more or one less (Ctrl or ⌘). */
export type PickMode = 'one' | 'range' | 'toggle';
const modeOf = (event: MouseEvent): PickMode =>
  event.shiftKey ? 'range' : event.metaKey || event.ctrlKey ? 'toggle' : 'one';

export interface ImageBrowserProps {
  images: readonly ImageView[];
  view: ReviewView;
  current: number;
  chosen: ReadonlySet<string>;
  scrollRef: RefObject<HTMLDivElement | null>;
  onPick: (index: number, mode: PickMode) => void;
  onToggle: (imageId: string) => void;
  onRename: (index: number) => void;
  onKeyDown: (event: KeyboardEvent) => void;
  /** The furthest image index drawn: the page asks for more before the list runs out. */
  onReach: (index: number) => void;
  /** Tells the page how many cards a grid row holds, for ↑ and ↓. */
  onColumns: (columns: number) => void;
  scrollTo: RefObject<((index: number) => void) | null>;
}

/** The columns a grid of `width` pixels holds. */
function useColumns(element: RefObject<HTMLDivElement | null>, view: ReviewView) {
  const [columns, setColumns] = useState(1);
  useEffect(() => {
    const box = element.current;
    if (!box || view === 'list') return setColumns(1);
    const measure = () => setColumns(Math.max(2, Math.floor(box.clientWidth / CARD_PX)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [element, view]);
  return view === 'list' ? 1 : columns;
}

/**
 * The batch's images as a list (rows sized to what they hold) or a grid of cards, drawn a screenful at a time
 * so a thousand stay smooth. One listbox either way: the page's keys work on both, a click picks, a box selects.
 */
export function ImageBrowser(props: ImageBrowserProps) {
  const { images, view, current, chosen, scrollRef } = props;
  const columns = useColumns(scrollRef, view);
  const lines = Math.ceil(images.length / columns);
  const virtual = useVirtualizer({
    count: lines,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (view === 'grid' ? CARD_PX + 40 : 88),
    overscan: view === 'grid' ? 2 : 8,
  });
  const { onColumns, onReach, scrollTo } = props;
  useEffect(() => onColumns(columns), [columns, onColumns]);
  const last = virtual.getVirtualItems().at(-1)?.index ?? 0;
  useEffect(() => onReach((last + 1) * columns), [last, columns, onReach]);
  scrollTo.current = (index) => virtual.scrollToIndex(Math.floor(index / columns));
  // A change of view or width changes every line's height: measured again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the view and the columns are what it runs for.
  useEffect(() => virtual.measure(), [view, columns, virtual]);

  const item = (index: number) => {
    const image = images[index]!;
    return (
      <ImageItem
        key={image.id}
        image={image}
        index={index}
        view={view}
        current={index === current}
        chosen={chosen.has(image.id)}
        onPick={props.onPick}
        onToggle={props.onToggle}
        onRename={props.onRename}
      />
    );
  };
  return (
    <div
      ref={scrollRef}
      className={`review-list ${view}`}
      role="listbox"
      aria-label="Images of the batch"
      aria-multiselectable="true"
      aria-activedescendant={images[current] ? `image-${images[current].id}` : undefined}
      tabIndex={0}
      data-autofocus
      onKeyDown={props.onKeyDown}
    >
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((line) => (
          <div
            key={line.key}
            data-index={line.index}
            ref={virtual.measureElement}
            className="review-line"
            style={{
              transform: `translateY(${line.start}px)`,
              gridTemplateColumns: view === 'grid' ? `repeat(${columns}, minmax(0, 1fr))` : undefined,
            }}
          >
            {Array.from({ length: columns }, (_, column) => line.index * columns + column)
              .filter((index) => index < images.length)
              .map(item)}
          </div>
        ))}
      </div>
    </div>
  );
}

const thumbnail = (image: ImageView) =>
  image.filename ? (
    <img src={`/api/image/${image.id}/preview`} alt="" loading="lazy" decoding="async" />
  ) : (
    <span className="placeholder" />
  );

/** One image; drawn again only when it or its state changes (holding `j` redraws two of them, not the screenful). */
const ImageItem = memo(function ImageItem(props: {
  image: ImageView;
  index: number;
  view: ReviewView;
  current: boolean;
  chosen: boolean;
  onPick: (index: number, mode: PickMode) => void;
  onToggle: (imageId: string) => void;
  onRename: (index: number) => void;
}) {
  const { image, index } = props;
  const name = image.filename ?? image.originalFilename;
  return (
    <div
      id={`image-${image.id}`}
      role="option"
      // Reached through the listbox's aria-activedescendant, never by Tab.
      tabIndex={-1}
      // Selected is what is ticked; the current image is the listbox's active descendant (and outlined).
      aria-selected={props.chosen}
      data-current={props.current || undefined}
      data-status={image.status}
      className={props.view === 'grid' ? 'review-card' : 'review-row'}
      onClick={(event) => props.onPick(index, modeOf(event))}
      // The listbox handles every key for its options.
      onKeyDown={() => undefined}
    >
      {/* Touch and mouse targets only: inside an option a control is no control (x, Enter, and the panel's own
          checkbox and Rename button are the keyboard's and screen readers' ways). */}
      <span
        className="choose"
        aria-hidden="true"
        data-checked={props.chosen || undefined}
        onClick={(event) => {
          event.stopPropagation();
          props.onToggle(image.id);
        }}
      />
      {thumbnail(image)}
      <div className="review-text">
        {/* biome-ignore lint/a11y/noStaticElementInteractions: Enter renames from the listbox. */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: Enter renames from the listbox. */}
        <span
          className="name"
          title={image.filename ? 'Click to rename' : undefined}
          data-testid="filename"
          onClick={(event) => {
            if (!image.filename) return;
            event.stopPropagation();
            props.onRename(index);
          }}
        >
          {name}
        </span>
        <div className="meta">
          <StatusBadge image={image} />
          {image.seo && (
            <span title={image.seo.reasons.map((reason) => reason.detail).join('\n')}> · score {image.seo.score}</span>
          )}
          {props.view === 'list' && image.visionTags.length > 0 && (
            <span className="tags">
              {' · '}
              {image.visionTags
                .slice(0, 5)
                .map((tag) => tag.label)
                .join(', ')}
            </span>
          )}
        </div>
      </div>
      {props.view === 'list' && image.filename && (
        <span
          className="button secondary rename-button"
          aria-hidden="true"
          onClick={(event) => {
            event.stopPropagation();
            props.onRename(index);
          }}
        >
          Rename
        </span>
      )}
    </div>
  );
});

/** An image's status, as a badge whose colour (and, for an approval, a tick) sets it apart. */
export function StatusBadge({ image }: { image: ImageView }) {
  return (
    <span data-testid="image-status" className={`badge ${image.status}`}>
      {image.status}
    </span>
  );
}
