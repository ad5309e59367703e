import type { VisionTag } from '@renamer/contracts';
import {
  altText,
  type ImageFacts,
  type NameShape,
  originalAsFilename,
  parseTemplate,
  personTags,
  plainShape,
  proposeName,
  storedFacts,
} from '@renamer/domain';
import type { Analysis, AnalysisContext } from './image-analyzer';

export interface ImageName {
  /** Everything the name was chosen from: the person's words and every step's tags. */
  tags: VisionTag[];
  filename: string;
  /** What may be cut to make the name unique in its batch. */
  shape: NameShape;
  /** The words of the name. */
  words: string[];
  altText: string;
}

/** What the file and its upload say of the image besides its tags: a template's tokens and a name's last words. */
export function imageFacts(analysis: Pick<Analysis, 'metadata'>, context: AnalysisContext): ImageFacts {
  // Analysed as soon as it is uploaded: without the upload's time, now is as good a month.
  const createdAt = context.uploadedAt ?? new Date();
  return storedFacts({ ...context, metadata: analysis.metadata, createdAt }, context.seq);
}

/**
 * The image's proposal from its analysis and the person's words, in the batch's template. Always a name within
 * the rules: when little is known, the frame's shape and the month complete it (never a camera's name); and
 * always an alt text.
 */
export function nameImage(analysis: Analysis, context: AnalysisContext): ImageName {
  const { keywords, locale } = context;
  const tags = [
    ...personTags({ keywords, context: context.context, originalFilename: context.originalFilename, locale }),
    ...analysis.visionTags,
  ];
  const facts = imageFacts(analysis, context);
  const parsed = context.template ? parseTemplate(context.template, locale) : null;
  const options = { format: analysis.metadata.format, locale };
  const proposal = proposeName(tags, { ...options, facts, template: parsed?.ok ? parsed.template : null });
  // Only a file without pixels or size could leave nothing to say: its uploaded name, made safe, stands.
  const filename = proposal.ok ? proposal.filename : originalAsFilename(context.originalFilename, options);
  const words = filename.slice(0, filename.lastIndexOf('.')).split('-');
  const alt = analysis.altText ?? altText(tags, { filenameWords: proposal.ok ? words : [], locale, facts });
  return {
    tags,
    filename,
    shape: proposal.ok ? proposal.shape : plainShape(words),
    words,
    altText: alt ?? `${words.join(' ')}.`,
  };
}
