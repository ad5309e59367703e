import { readImageMetadata } from '@renamer/imaging';
import type { Analysis, AnalysisContext, ImageAnalyzer } from './image-analyzer';

const stemOf = (filename: string) => filename.replace(/\.[A-Za-z0-9]{1,5}$/, '');

function orientationWord(width: number, height: number): string {
  if (width === height) return 'square';
  return width > height ? 'landscape' : 'portrait';
}

/**
 * The first analyser: the image's own header (dimensions, format, orientation), and names from what the
 * person told us (keywords, batch name, the original filename), with the shape as a last resort.
 */
export function createMetadataAnalyzer(): ImageAnalyzer {
  return {
    async analyze(path: string, context: AnalysisContext): Promise<Analysis> {
      const metadata = await readImageMetadata(path);
      return {
        metadata,
        visionTags: [],
        altText: null,
        nameCandidates: [
          ...context.keywords,
          ...(context.batchName ? [context.batchName] : []),
          stemOf(context.originalFilename),
          orientationWord(metadata.width, metadata.height),
          'image',
        ],
      };
    },
  };
}
