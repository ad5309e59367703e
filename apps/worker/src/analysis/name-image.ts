import type { VisionTag } from '@renamer/contracts';
import { altText, originalAsFilename, personTags, proposeName } from '@renamer/domain';
import type { Analysis, AnalysisContext } from './image-analyzer';

export interface ImageName {
  /** Everything the name was chosen from: the person's words and every step's tags. */
  tags: VisionTag[];
  filename: string;
  /** The words chosen to describe the picture; none when the uploaded name was kept. */
  words: string[];
  altText: string | null;
}

/**
 * The image's proposal from its analysis and the person's words. When nothing honest can be said of the
 * picture, the uploaded name made safe stands rather than a guess.
 */
export function nameImage(analysis: Analysis, context: AnalysisContext): ImageName {
  const { originalFilename, keywords, locale } = context;
  const tags = [
    ...personTags({ keywords, context: context.context, originalFilename, locale }),
    ...analysis.visionTags,
  ];
  const options = { format: analysis.metadata.format, locale };
  const proposal = proposeName(tags, options);
  const words = proposal.ok ? proposal.words : [];
  return {
    tags,
    filename: proposal.ok ? proposal.filename : originalAsFilename(originalFilename, options),
    words,
    altText: analysis.altText ?? altText(tags, { filenameWords: words, locale }),
  };
}
