import type { ImageMetadata } from '@renamer/contracts';
import type { AnalysisContext } from './image-analyzer';

const stemOf = (filename: string) => filename.replace(/\.[A-Za-z0-9]{1,5}$/, '');

function orientationWord(width: number, height: number): string {
  if (width === height) return 'square';
  return width > height ? 'landscape' : 'portrait';
}

/**
 * Names from what the person told us (keywords, batch name, the original filename) first, then the
 * image's shape as a last resort.
 */
export function nameCandidates(context: AnalysisContext, metadata: ImageMetadata): string[] {
  return [
    ...context.keywords,
    ...(context.batchName ? [context.batchName] : []),
    stemOf(context.originalFilename),
    orientationWord(metadata.width, metadata.height),
    'image',
  ];
}
