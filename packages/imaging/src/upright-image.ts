import type { ImageFormat } from '@renamer/contracts';
import sharp, { type Sharp } from 'sharp';

/**
 * The primary image of a stored file as a sharp pipeline, upright (its orientation applied) and not yet
 * resized: the first frame of an animation, the first page of a TIFF. Callers resize, convert and output;
 * `release` frees what opening it took and must be called once the pipeline has run.
 */
export interface UprightImage {
  image: Sharp;
  release(): Promise<void>;
}

export interface UprightImageOptions {
  /** The caller will not need more than this on the long edge: a decoder may stop there. */
  maxEdge?: number;
}

const nothingToRelease = async () => undefined;

/** Opens any accepted format for decoding; every analysis and preview goes through here. */
export async function openUprightImage(
  path: string,
  _format: ImageFormat,
  _options: UprightImageOptions = {},
): Promise<UprightImage> {
  return { image: sharp(path).rotate(), release: nothingToRelease };
}
