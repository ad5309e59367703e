import sharp from 'sharp';

/**
 * Turns libvips' operation cache off for this process: a service that decodes each (uniquely named) file
 * once, as the upload checks do, would only hold memory in it.
 */
export function turnOffImageCache(): void {
  sharp.cache(false);
}
