import type { MotionPhotoXmp } from './motion-photo-xmp';
import { checkSeftTrailer, SEFT_TAIL_BYTES } from './samsung-trailer';
import { TrailerWatch } from './trailer-watch';

/** What a JPEG declares about the bytes after it, gathered by the walk. */
export interface JpegDeclarations {
  /** Where the primary image's EOI ends; the walk may then have passed further JPEGs (MPF, gain maps). */
  primaryEnd: number;
  xmp: MotionPhotoXmp;
}

export type TrailerVerdict = { ok: true; motionPhoto: boolean } | { ok: false; detail: string };

/** Whether one declaration accounts for the trailing bytes; `why` not, when the file makes that declaration at all. */
export type TrailerExplanation = { accounted: true; motionPhoto: boolean } | { accounted: false; why?: string };

const MOTION_PHOTO_SEMANTIC = 'MotionPhoto';

/** An MP4 (ISO-BMFF) starts with its `ftyp` box: 4 bytes of size, then the type. */
const startsAnMp4 = (firstBytes: Buffer) => firstBytes.toString('latin1', 4, 8) === 'ftyp';

interface LaidOutItem {
  semantic: string;
  start: number;
}

/** Where the directory puts each item after the primary image, and where the last one (with its padding) ends. */
function layOut(declarations: JpegDeclarations): { items: LaidOutItem[]; boundaries: Set<number>; end: number } {
  const { directory } = declarations.xmp;
  const items: LaidOutItem[] = [];
  const boundaries = new Set([declarations.primaryEnd]);
  if (!Array.isArray(directory)) return { items, boundaries, end: declarations.primaryEnd };
  const [primary, ...rest] = directory;
  let at = declarations.primaryEnd + primary!.padding;
  boundaries.add(at);
  for (const item of rest) {
    items.push({ semantic: item.semantic, start: at });
    at += item.length;
    boundaries.add(at);
    at += item.padding;
    boundaries.add(at);
  }
  return { items, boundaries, end: at };
}

/**
 * Decides whether the bytes after a JPEG's image are a container the file itself declares: a Motion Photo
 * `Container:Directory`, the older `GCamera:MicroVideoOffset`, or Samsung's SEFT trailer. Fed the trailing
 * bytes as they stream past (`push`), it keeps a few fixed-size buffers only.
 */
export class DeclaredTrailerCheck {
  readonly #declarations: JpegDeclarations;
  readonly #layout: ReturnType<typeof layOut>;
  readonly #watch: TrailerWatch;

  /** `imageEnd`: where the walk ended, after the primary image and any JPEGs right behind it. */
  constructor(declarations: JpegDeclarations, imageEnd: number) {
    this.#declarations = declarations;
    this.#layout = layOut(declarations);
    const videoStarts = this.#layout.items.filter((item) => item.semantic === MOTION_PHOTO_SEMANTIC);
    this.#watch = new TrailerWatch(imageEnd, [imageEnd, ...videoStarts.map((item) => item.start)], SEFT_TAIL_BYTES);
  }

  push(piece: Buffer): void {
    this.#watch.push(piece);
  }

  /** Once every trailing byte was pushed. */
  finish(): TrailerVerdict {
    const explanations = [this.#container(), this.#microVideo(), this.#seft()];
    const accounted = explanations.find((explanation) => explanation.accounted);
    if (accounted?.accounted) return { ok: true, motionPhoto: accounted.motionPhoto };
    const { start, end } = this.#watch;
    const why = explanations.flatMap((explanation) =>
      !explanation.accounted && explanation.why ? [explanation.why] : [],
    );
    const declared = why.length > 0 ? why.join('; ') : 'nothing in the file declares them';
    return { ok: false, detail: `${end - start} bytes after the image ends at byte ${start}: ${declared}` };
  }

  #container(): TrailerExplanation {
    const { directory } = this.#declarations.xmp;
    if (!directory) return { accounted: false };
    if (directory === 'invalid') {
      return { accounted: false, why: 'the Motion Photo directory has an item without a valid length' };
    }
    if (directory[0]!.semantic !== 'Primary') {
      return { accounted: false, why: 'the Motion Photo directory does not start with the primary image' };
    }
    const { primaryEnd } = this.#declarations;
    const { items, boundaries, end } = this.#layout;
    if (end !== this.#watch.end) {
      const declared = end - primaryEnd;
      const found = this.#watch.end - primaryEnd;
      return {
        accounted: false,
        why: `the Motion Photo directory declares ${declared} bytes after the image, but ${found} follow`,
      };
    }
    if (!boundaries.has(this.#watch.start)) {
      return { accounted: false, why: 'the images after the primary one do not match the Motion Photo directory' };
    }
    const videos = items.filter((item) => item.semantic === MOTION_PHOTO_SEMANTIC);
    if (videos.length === 0) return { accounted: false, why: 'the Motion Photo directory has no MotionPhoto item' };
    if (!videos.every((video) => video.start >= this.#watch.start && startsAnMp4(this.#watch.probe(video.start)))) {
      return { accounted: false, why: 'the Motion Photo item is not an MP4 (it does not start with an ftyp box)' };
    }
    return { accounted: true, motionPhoto: true };
  }

  #microVideo(): TrailerExplanation {
    const offset = this.#declarations.xmp.microVideoOffset;
    if (offset === undefined) return { accounted: false };
    const { start, end } = this.#watch;
    if (end - offset !== start) {
      return {
        accounted: false,
        why: `GCamera:MicroVideoOffset declares ${offset} bytes of video, but ${end - start} follow`,
      };
    }
    if (!startsAnMp4(this.#watch.probe(start))) {
      return { accounted: false, why: 'the MicroVideo is not an MP4 (it does not start with an ftyp box)' };
    }
    return { accounted: true, motionPhoto: true };
  }

  #seft(): TrailerExplanation {
    return checkSeftTrailer(this.#watch.tail(), this.#watch.start, this.#watch.end);
  }
}
