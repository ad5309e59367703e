import type { ImageView } from '@renamer/contracts';
import { useEffect, useRef } from 'react';

/** The large preview (at most 1600 px on the long side): what a person judges a name against. */
export const largePreviewUrl = (image: Pick<ImageView, 'id'>) => `/api/image/${image.id}/preview?size=large`;

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
 * The selected photo, large, with the name it had and the name it has under it; a click (or Enter on it) opens it
 * at its own size (up to 1600 px, scrolling where the window is smaller) in a modal that Esc or a click closes.
 * Any stored image has one (made on demand from the original), so a failed or queued image shows too.
 */
export function PhotoPanel({ image, neighbours }: { image: ImageView; neighbours: readonly ImageView[] }) {
  const zoom = useRef<HTMLDialogElement>(null);
  usePreloaded(neighbours.slice(0, PRELOADED * 2));
  const name = image.filename ?? image.originalFilename;
  return (
    <figure className="photo-panel">
      <button
        type="button"
        className="photo-zoom"
        aria-label={`Zoom ${name}`}
        onClick={() => zoom.current?.showModal()}
      >
        <img data-testid="large-preview" src={largePreviewUrl(image)} alt={image.altText ?? ''} />
      </button>
      <figcaption data-testid="name-change">
        <span className="meta">{image.originalFilename}</span> → <strong>{image.filename ?? '…'}</strong>
      </figcaption>
      {/* A click anywhere closes it, the picture included: there is nothing else in it to click. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Esc closes a modal dialog; the click is the mouse's way. */}
      <dialog ref={zoom} className="photo-full" aria-label={`${name}, zoomed`} onClick={() => zoom.current?.close()}>
        <img src={largePreviewUrl(image)} alt={image.altText ?? ''} />
        <button type="button" className="secondary" onClick={() => zoom.current?.close()}>
          Close <kbd>Esc</kbd>
        </button>
      </dialog>
    </figure>
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
