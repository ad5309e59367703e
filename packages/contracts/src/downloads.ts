import { z } from 'zod';

/** A link anyone holding it can fetch until `expiresAt`. */
export const DownloadLinkResponse = z.object({
  url: z.url(),
  expiresAt: z.iso.datetime(),
});
export type DownloadLinkResponse = z.infer<typeof DownloadLinkResponse>;

/** A query switch: `true` or `false` (the default). */
const flag = (description: string) =>
  z
    .enum(['true', 'false'])
    .describe(description)
    .default('false')
    .transform((value) => value === 'true');

export const STRIP_MODES = ['none', 'location', 'all'] as const;
export const COPY_FORMATS = ['original', 'jpeg', 'webp', 'avif'] as const;

/**
 * What a download's copies were made with, as recorded in `downloads.options` and listed by GET /api/downloads:
 * `embed` and `strip` for every download, the web-ready settings for an archive that asked for them.
 */
export const DownloadOptions = z.object({
  embed: z.boolean(),
  strip: z.enum(STRIP_MODES),
  approvedOnly: z.boolean().optional(),
  manifest: z.boolean().optional(),
  resize: z.number().int().positive().optional(),
  format: z.enum(COPY_FORMATS).optional(),
  quality: z.number().int().min(1).max(100).optional(),
});
export type DownloadOptions = z.infer<typeof DownloadOptions>;

/** One download the caller asked for, as GET /api/downloads lists it. */
export const DownloadView = z.object({
  id: z.uuid(),
  kind: z.enum(['image', 'archive']).describe('One image’s link, or a batch’s ZIP archive.'),
  batchId: z
    .uuid()
    .nullable()
    .describe('The batch the image or the archive belongs to; null once that batch was deleted.'),
  imageId: z.uuid().optional().describe('The image, for a single image’s link, until that image is deleted.'),
  options: DownloadOptions.describe('What the copies were made with.'),
  entries: z.number().int().min(0).nullable().describe('The images it holds: 1 for an image, the archive’s count.'),
  bytes: z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe(
      'Bytes sent so far (every fetch of the link counted); null until the service served it (a plain original is handed out by the object store directly).',
    ),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable().describe('When every byte of the file first went out; null until then.'),
});
export type DownloadView = z.infer<typeof DownloadView>;

export const DownloadList = z.object({ items: z.array(DownloadView), nextCursor: z.string().nullable() });
export type DownloadList = z.infer<typeof DownloadList>;

export type StripMode = (typeof STRIP_MODES)[number];
export type CopyFormat = (typeof COPY_FORMATS)[number];

/** `strip` of a download's query: which metadata its copies lose (the original is never changed). */
const strip = z
  .enum(STRIP_MODES)
  .default('none')
  .describe(
    '`location`: GPS and every other location tag removed from the copy; `all`: every metadata tag but orientation and colour profile; `none` (default): the bytes as stored. A camera RAW goes out as uploaded.',
  );

/** A whole number in a query string, within bounds; absent stays undefined. */
const queryInt = (min: number, max: number, description: string) =>
  z.coerce.number().int().min(min).max(max).optional().describe(description);

export const ImageDownloadQuery = z.object({
  embed: flag(
    'Write the title, alt text and keywords into a copy of the file (XMP and IPTC); the original is untouched.',
  ),
  strip,
});

/** One file of a batch's archive: the image under its current filename. */
export const ArchiveEntryView = z.object({
  imageId: z.uuid(),
  originalFilename: z.string(),
  /** The entry's name in the archive. */
  filename: z.string(),
  status: z.enum(['ready', 'approved']),
  approved: z.boolean(),
});
export type ArchiveEntryView = z.infer<typeof ArchiveEntryView>;

export const BatchPreviewQuery = z.object({
  approvedOnly: flag('Only approved images.'),
});

export const BatchPreview = z.object({
  batchId: z.uuid(),
  entries: z.array(ArchiveEntryView),
});
export type BatchPreview = z.infer<typeof BatchPreview>;

export const BatchDownloadQuery = BatchPreviewQuery.extend({
  embed: flag('Write each image’s title, alt text and keywords into its copy in the archive (XMP and IPTC).'),
  manifest: flag('Add the rename kit: renamer/manifest.csv and, with baseUrl, redirect maps and an image sitemap.'),
  baseUrl: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe('Where the images are served today (a path or an absolute URL), for the redirect maps; with manifest.'),
  strip,
  resize: queryInt(16, 10_000, 'Web-ready copies at most this many pixels on the long side (never enlarged).'),
  format: z
    .enum(COPY_FORMATS)
    .optional()
    .describe('Web-ready copies in this format under its extension (`original`: each image’s own format).'),
  quality: queryInt(1, 100, 'Encoder quality of the web-ready copies (JPEG, WebP, AVIF).'),
}).refine((query) => query.baseUrl === undefined || query.manifest, {
  path: ['baseUrl'],
  message: 'goes with manifest=true',
});

export const BatchDownloadResponse = DownloadLinkResponse.extend({
  entries: z.number().int().min(1).describe('How many images the archive holds (its entries are the preview’s).'),
});
export type BatchDownloadResponse = z.infer<typeof BatchDownloadResponse>;
