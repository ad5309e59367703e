import { z } from 'zod';
import { ListQuery, Locale, NamingTemplate } from './batches';
import { ImageStatus } from './enums';
import { ProblemFieldError } from './errors';
import { IMAGE_FORMATS_IN_WORDS } from './image-formats';
import { ImageMetadata, ImageSafety, SeoScore, VisionTag } from './images';

// In the order of the database enum `filename_source`.
export const FILENAME_SOURCES = ['user', 'proposal', 'revert'] as const;
/** Who gave an image a filename: the analyser's proposal, a person's rename, or a revert. */
export const FilenameSource = z.enum(FILENAME_SOURCES);
export type FilenameSource = z.infer<typeof FilenameSource>;

export const ImageIdParams = z.object({ imageId: z.uuid() });

/** The sizes an image's preview comes in; what each is in pixels is @renamer/imaging's `PREVIEW_EDGES`. */
export const PREVIEW_SIZES = ['small', 'large'] as const;
export const PreviewSize = z.enum(PREVIEW_SIZES);
export type PreviewSize = z.infer<typeof PreviewSize>;

/** What `GET /api/image/:imageId/preview` can be asked for: a stored size, or the picture at its full size. */
export const PREVIEW_QUERY_SIZES = [...PREVIEW_SIZES, 'full'] as const;
export type PreviewQuerySize = (typeof PREVIEW_QUERY_SIZES)[number];

export const ImagePreviewQuery = z.object({
  size: z
    .enum(PREVIEW_QUERY_SIZES)
    .default('small')
    .describe(
      `\`small\`: 512 px on the long side at most; \`large\`: 1600 px at most, made on the first request and stored; \`full\`: the original file itself when browsers show its format (${IMAGE_FORMATS_IN_WORDS.shownByBrowsers}), else the large preview.`,
    ),
});

/** An image as its owner sees it. `metadata` is null until the image has been analysed. */
export const ImageView = z.object({
  id: z.uuid(),
  batchId: z.uuid(),
  status: ImageStatus,
  originalFilename: z.string(),
  proposedFilename: z.string().nullable(),
  filename: z.string().nullable(),
  approved: z.boolean(),
  approvedAt: z.iso.datetime().nullable(),
  checksum: z.string().describe('SHA-256 of the bytes, lowercase hex.'),
  size: z.number().int(),
  mimeType: z.string(),
  metadata: ImageMetadata.nullable(),
  visionTags: z.array(VisionTag),
  altText: z.string().nullable(),
  seo: SeoScore.nullable().describe('The score of the current filename, 0–100, with a reason per rule.'),
  safety: ImageSafety.nullable().describe('The content-safety judgement of the pixels; null until analysed.'),
  error: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ImageView = z.infer<typeof ImageView>;

export const FilenameChange = z.object({
  from: z.string().nullable(),
  to: z.string(),
  source: FilenameSource,
  by: z.uuid().nullable().describe('The user who made the change; null for the analyser.'),
  at: z.iso.datetime(),
});
export type FilenameChange = z.infer<typeof FilenameChange>;

export const ImageDetail = ImageView.extend({
  history: z.array(FilenameChange).describe('Every change of the filename, newest first.'),
});
export type ImageDetail = z.infer<typeof ImageDetail>;

export const ImageList = z.object({ items: z.array(ImageView), nextCursor: z.string().nullable() });

export const IMAGE_SORTS = ['upload', 'score'] as const;

export const ImageListQuery = ListQuery.extend({
  status: ImageStatus.optional(),
  sort: z
    .enum(IMAGE_SORTS)
    .default('upload')
    .describe(
      '`upload`: the order the files were sent; `score`: the lowest SEO score first, images not yet named last.',
    ),
});

export const RenameImageBody = z.object({
  filename: z
    .string()
    .describe('Normalised by the filename rules; the extension always follows the image’s real format.'),
});

export const FilenameCheckBody = z.union([
  z.object({
    filename: z.string().max(1000).describe('A name as a person typed it.'),
    imageId: z
      .uuid()
      .optional()
      .describe(
        'The image it is meant for: its real format, its batch’s locale and tags, and its batch’s other names.',
      ),
    locale: Locale.optional().describe('Without `imageId`: the language of the name (default en).'),
  }),
  z.object({
    template: NamingTemplate.describe('A naming template: the answer is the name it would give this image.'),
    imageId: z.uuid().describe('The image to name with the template.'),
  }),
]);
export type FilenameCheckBody = z.infer<typeof FilenameCheckBody>;

export const FilenameCheckResponse = z.object({
  filename: z.string().nullable().describe('The name as the rules make it, or null when they refuse it.'),
  valid: z.boolean().describe('Whether a rename to it would be accepted now.'),
  errors: z.array(ProblemFieldError).describe('Why not: `invalid_filename` or `filename_conflict`.'),
  seo: SeoScore.nullable(),
});
export type FilenameCheckResponse = z.infer<typeof FilenameCheckResponse>;

export const REVERT_TARGETS = ['original', 'proposed'] as const;
/** Optional: a request without a body reverts to the original name. */
export const RevertImageBody = z
  .object({
    to: z
      .enum(REVERT_TARGETS)
      .optional()
      .describe('`original` (the default): the uploaded name, made path-safe; `proposed`: the analyser’s proposal.'),
  })
  .nullish();

/** The most images one bulk approval or its undo names. */
export const MAX_BULK_IMAGES = 1000;

/** Optional, as a bulk change's body: without it (or without `imageIds`) the change applies to the whole batch. */
const batchImagesBody = (description: string) =>
  z.object({ imageIds: z.array(z.uuid()).min(1).max(MAX_BULK_IMAGES).optional().describe(description) }).nullish();

export const ApproveBatchBody = batchImagesBody(
  'Approve only these of the batch’s ready images; every ready image when left out.',
);

export const ApproveBatchResponse = z.object({ approved: z.number().int().min(0) });

export const UnapproveBatchBody = batchImagesBody(
  'Take back only these of the batch’s approved images; every approved image when left out.',
);

export const UnapproveBatchResponse = z.object({ unapproved: z.number().int().min(0) });
