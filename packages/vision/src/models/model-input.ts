import sharp from 'sharp';
import type { DecodedImage } from '../decoded-image';
import type { Tfjs } from './tfjs-runtime';

/**
 * The image scaled to the square a model was trained on (stretched, as the models' own resizing would), as an
 * int32 [size, size, 3] tensor. sharp's resampling is smoother than the models' bilinear resize from 1024 px.
 */
export async function squareInput(tf: Tfjs, image: DecodedImage, size: number) {
  const pixels = await sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(size, size, { fit: 'fill' })
    .raw()
    .toBuffer();
  return tf.tensor3d(new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength), [size, size, 3], 'int32');
}
