import { closeHeicPool, setHeicDecodeThreads } from './heic-decoder';
import { closeRawReader } from './raw-preview';

export interface CameraDecodingOptions {
  /** Worker threads decoding HEIC at once (default: the cores). */
  heicThreads?: number;
}

/**
 * Sets up the decoders HEIC and camera RAW need, which start on first use: a pool of worker threads for
 * libheif, one ExifTool for the RAW previews. A service calls this at boot and `closeCameraDecoding` on
 * shutdown.
 */
export function configureCameraDecoding({ heicThreads }: CameraDecodingOptions): void {
  if (heicThreads !== undefined) setHeicDecodeThreads(heicThreads);
}

/** Ends the HEIC pool's threads and the ExifTool process, if they were started. */
export async function closeCameraDecoding(): Promise<void> {
  await Promise.all([closeHeicPool(), closeRawReader()]);
}
