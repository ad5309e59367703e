import { z } from 'zod';
import { BatchStatus } from './enums';
import { ErrorCodeSchema } from './errors';
import { ImageStatusCounts } from './images';
import { FreeText, SingleLineText } from './text';

export const BatchIdParams = z.object({ batchId: z.uuid() });

export const BatchStatusResponse = z.object({
  batchId: z.uuid(),
  name: z.string().nullable(),
  status: BatchStatus,
  total: z.number().int(),
  processed: z.number().int(),
  progress: z.number().min(0).max(1),
  counts: ImageStatusCounts,
  locale: z.string().describe('BCP 47 language tag of the names.'),
  keywords: z.array(z.string()).describe('The batch’s keywords, leading its proposed names.'),
  context: z.string().nullable().describe('What the person said about the whole batch.'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
export type BatchStatusResponse = z.infer<typeof BatchStatusResponse>;

export const BatchList = z.object({ items: z.array(BatchStatusResponse), nextCursor: z.string().nullable() });

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(512).optional(),
});

const Keywords = z.array(SingleLineText.min(1).max(60)).max(20);
const BatchContext = FreeText.max(500);
export const Locale = SingleLineText.regex(
  /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/,
  'must be a BCP 47 language tag such as en or de-CH',
).describe('BCP 47 language tag of the names, e.g. en or de-CH.');
const BatchName = SingleLineText.max(200).describe('The batch’s name, e.g. "Spring shoes".');

export const UploadFields = z.object({
  name: BatchName.optional(),
  keywords: z
    .string()
    .max(2000)
    .optional()
    .describe('Comma-separated, at most 20, each at most 60 characters; they lead the proposed names.')
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((keyword) => keyword.trim())
        .filter(Boolean),
    )
    .pipe(Keywords),
  context: z
    .string()
    // Multipart sends a form's line breaks as CRLF: plain line breaks before the length is counted.
    .transform((value) => value.replace(/\r\n?/g, '\n'))
    .pipe(BatchContext)
    .optional()
    .describe(
      'Free text about the whole batch, at most 500 characters, e.g. "handmade ceramic mugs for a coffee shop"; its words join the names.',
    ),
  locale: Locale.default('en'),
});

/** What a batch's later proposals and keyword suggestions use; at least one field. */
export const UpdateBatchBody = z
  .object({
    name: BatchName.nullable().optional(),
    keywords: Keywords.optional().describe('Replaces the batch’s keywords: at most 20, each at most 60 characters.'),
    context: BatchContext.nullable().optional().describe('At most 500 characters; null clears it.'),
    locale: Locale.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'name at least one field to change');
export type UpdateBatchBody = z.infer<typeof UpdateBatchBody>;

export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 digest in lowercase hex');

export const BatchCheckBody = z.object({
  checksums: z.array(Sha256Hex).min(1).max(1000).describe('SHA-256 of each file’s bytes, lowercase hex.'),
});

export const BatchCheckResponse = z.object({
  existing: z
    .array(z.object({ checksum: Sha256Hex, imageId: z.uuid() }))
    .describe('The files the caller already has, with the image that holds each; the others are new.'),
});

/** The parts of `POST /api/batch`, as a client sends them: files, then the fields `UploadFields` reads. */
export const UploadForm = UploadFields.extend({
  files: z
    .array(z.file())
    .min(1)
    .describe('The images, one part each (JPEG, PNG, WebP, GIF, AVIF or TIFF), with their file names.'),
});

/** An uploaded file's name as it is kept and shown: from the part's header, trimmed; files named otherwise are refused. */
export const OriginalFilename = SingleLineText.min(1).max(255);

export const RejectedFile = z.object({
  originalFilename: z.string(),
  code: ErrorCodeSchema,
  detail: z.string(),
  duplicateOf: z.uuid().optional(),
});
export type RejectedFile = z.infer<typeof RejectedFile>;

export const UploadResponse = z.object({
  batchId: z.uuid(),
  status: BatchStatus,
  total: z.number().int(),
  accepted: z.array(z.object({ imageId: z.uuid(), originalFilename: z.string() })),
  rejected: z.array(RejectedFile),
});
export type UploadResponse = z.infer<typeof UploadResponse>;
