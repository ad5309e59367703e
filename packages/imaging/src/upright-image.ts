import { IMAGE_FORMAT_TABLE, type ImageFormat } from '@renamer/contracts';
import sharp, { type Sharp } from 'sharp';
import { decodeHeicInPool } from './heic-decoder';
import { applyOrientation } from './orientation';
import { openRawPreview } from './raw-preview';

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

/** HEIC: decoded in the pool, where libheif applies the file's own rotation, mirroring and crop. */
async function openHeic(path: string, maxEdge: number | undefined): Promise<UprightImage> {
  const decoded = await decodeHeicInPool({ path, pixels: { maxEdge } });
  if ('refused' in decoded) throw new Error(`the HEIC image cannot be decoded: ${decoded.refused}`);
  if (!('data' in decoded)) throw new Error('the HEIC decode gave no pixels');
  const { data, width, height, channels } = decoded;
  return { image: sharp(data, { raw: { width, height, channels } }), release: nothingToRelease };
}

/** RAW: the embedded JPEG preview, turned as the RAW's own EXIF says (the preview's may be missing or wrong). */
async function openRaw(path: string): Promise<UprightImage> {
  const preview = await openRawPreview(path);
  if (!preview.previewPath) throw new Error('the RAW file carries no embedded JPEG preview');
  return { image: applyOrientation(sharp(preview.previewPath), preview.facts.orientation), release: preview.release };
}

/** Opens any accepted format for decoding; every analysis and preview goes through here. */
export async function openUprightImage(
  path: string,
  format: ImageFormat,
  { maxEdge }: UprightImageOptions = {},
): Promise<UprightImage> {
  if (format === 'heic') return openHeic(path, maxEdge);
  if (IMAGE_FORMAT_TABLE[format].preview === 'embedded-jpeg') return openRaw(path);
  return { image: sharp(path).rotate(), release: nothingToRelease };
}
