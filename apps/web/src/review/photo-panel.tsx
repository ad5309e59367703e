import type { ImageView } from '@renamer/contracts';
import { type MouseEvent, type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** The large preview (at most 1600 px on the long side): what a person judges a name against. */
export const largePreviewUrl = (image: Pick<ImageView, 'id'>) => `/api/image/${image.id}/preview?size=large`;
/** The picture at its full size: the original itself where the browser shows its format, else the large preview. */
export const fullImageUrl = (image: Pick<ImageView, 'id'>) => `/api/image/${image.id}/preview?size=full`;

/** How many images either side of the selected one are fetched ahead, so `j` and `k` show them at once. */
const PRELOADED = 2;

/** Asks the browser for the neighbours' large previews; its cache (`max-age=3600`) then holds them. */
function usePreloaded(neighbours: readonly ImageView[]) {
  const ids = neighbours.map((image) => image.id).join(',');
  useEffect(() => {
    const images = ids
      .split(',')
      .filter(Boolean)
      .map((id) => {
        const image = new Image();
        image.decoding = 'async';
        image.src = largePreviewUrl({ id });
        return image;
      });
    return () => {
      for (const image of images) image.src = '';
    };
  }, [ids]);
}

/**
 * The selected photo, large, with the name it had and the name it has under it; a click (or Enter on it) opens the
 * zoom. Any stored image has one (made on demand from the original), so a failed or queued image shows too.
 */
export function PhotoPanel({ image, neighbours }: { image: ImageView; neighbours: readonly ImageView[] }) {
  const zoom = useRef<HTMLDialogElement>(null);
  const [zoomed, setZoomed] = useState(false);
  usePreloaded(neighbours.slice(0, PRELOADED * 2));
  const name = image.filename ?? image.originalFilename;
  return (
    <figure className="photo-panel">
      <button
        type="button"
        className="photo-zoom"
        aria-label={`Zoom ${name}`}
        onClick={() => {
          setZoomed(true);
          zoom.current?.showModal();
        }}
      >
        <img data-testid="large-preview" src={largePreviewUrl(image)} alt={image.altText ?? ''} />
      </button>
      <figcaption data-testid="name-change">
        <span className="meta">{image.originalFilename}</span> → <strong>{image.filename ?? '…'}</strong>
      </figcaption>
      {/* A click beside the picture closes it, as Esc and Close do. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Esc closes a modal dialog; the click is the mouse's way. */}
      <dialog
        ref={zoom}
        className="photo-full"
        aria-label={`${name}, zoomed`}
        // A close event from before a reopening is stale (the browser sends it in a task of its own).
        onClose={() => {
          if (!zoom.current?.open) setZoomed(false);
        }}
        onClick={(event) => {
          if (event.target === event.currentTarget) zoom.current?.close();
        }}
      >
        {/* Only while open: the original can be many megabytes, fetched when someone asks to look closer. */}
        {zoomed && <FullImage key={image.id} image={image} dialog={zoom} />}
        <button type="button" className="secondary" onClick={() => zoom.current?.close()}>
          Close <kbd>Esc</kbd>
        </button>
      </dialog>
    </figure>
  );
}

/**
 * The photo fitted to the window, or at its actual size (one image pixel to one screen pixel, scrolling) after a
 * click, centred where the click was. The cached large preview is painted under it until the full image arrives.
 */
function FullImage({ image, dialog }: { image: ImageView; dialog: RefObject<HTMLDialogElement | null> }) {
  const [actualSize, setActualSize] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const clickedAt = useRef({ x: 0.5, y: 0.5 });
  const picture = useRef<HTMLImageElement>(null);
  const toggleButton = useRef<HTMLButtonElement>(null);

  // Opened: the keys work on the picture at once (Enter shows its actual size).
  useEffect(() => toggleButton.current?.focus(), []);

  useLayoutEffect(() => {
    const frame = dialog.current;
    const shown = picture.current;
    if (!actualSize || !frame || !shown) return;
    frame.scrollLeft = shown.offsetLeft + clickedAt.current.x * shown.offsetWidth - frame.clientWidth / 2;
    frame.scrollTop = shown.offsetTop + clickedAt.current.y * shown.offsetHeight - frame.clientHeight / 2;
  }, [actualSize, dialog]);

  const toggle = (event: MouseEvent<HTMLButtonElement>) => {
    const box = picture.current?.getBoundingClientRect();
    // A click from the keyboard has no position, and a picture not drawn yet no size: the centre.
    if (box && box.width > 0 && box.height > 0 && event.detail > 0) {
      clickedAt.current = { x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height };
    } else clickedAt.current = { x: 0.5, y: 0.5 };
    setActualSize((actual) => !actual);
  };

  return (
    <button
      ref={toggleButton}
      type="button"
      className={`photo-scale ${actualSize ? 'actual-size' : 'fitted'}`}
      aria-pressed={actualSize}
      aria-label="Actual size"
      onClick={toggle}
    >
      <img
        ref={picture}
        data-testid="full-image"
        src={fullImageUrl(image)}
        alt={image.altText ?? ''}
        onLoad={() => setLoaded(true)}
        style={loaded ? undefined : { backgroundImage: `url("${largePreviewUrl(image)}")` }}
      />
    </button>
  );
}

/** The images either side of `index`, nearest first. */
export function neighboursOf(images: readonly ImageView[], index: number): ImageView[] {
  const around: ImageView[] = [];
  for (let step = 1; step <= PRELOADED; step++) {
    const after = images[index + step];
    const before = images[index - step];
    if (after) around.push(after);
    if (before) around.push(before);
  }
  return around;
}
