import sharp from 'sharp';
import type { DecodedImage } from '../decoded-image';
import type { Tfjs } from './tfjs-runtime';

/**
 * The image scaled to the square a model was trained on (stretched, as the models' own resizing would), as an
 * int32 [size, size, 3] tensor. sharp's resampling is smoother than the models' bilinear resize from 1024 px.
 */
export async function squareInput(tf: Tfjs, image: DecodedImage, size: number, region?: Region) {
  const pixels = await regionOf(image, region).resize(size, size, { fit: 'fill' }).raw().toBuffer();
  return tf.tensor3d(new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength), [size, size, 3], 'int32');
}

/** A part of the picture as shares of its width and height, 0..1. */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

function regionOf(image: DecodedImage, region?: Region) {
  const input = sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 3 } });
  if (!region) return input;
  const left = Math.round(region.left * image.width);
  const top = Math.round(region.top * image.height);
  return input.extract({
    left,
    top,
    width: Math.max(1, Math.min(image.width - left, Math.round(region.width * image.width))),
    height: Math.max(1, Math.min(image.height - top, Math.round(region.height * image.height))),
  });
}

/**
 * The picture (or a region of it) with its aspect kept, at most `maxEdge` on the long edge, as an int32 [height, width, 3] tensor: for
 * models that resize by themselves.
 */
export async function imageInput(tf: Tfjs, image: DecodedImage, maxEdge: number, region?: Region) {
  const { data, info } = await regionOf(image, region)
    .resize(maxEdge, maxEdge, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return tf.tensor3d(
    new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    [info.height, info.width, 3],
    'int32',
  );
}
