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

export const UploadFields = z.object({
  name: SingleLineText.max(200).optional().describe('The batch’s name, e.g. "Spring shoes".'),
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
    .pipe(z.array(SingleLineText.min(1).max(60)).max(20)),
  context: z
    .string()
    // Multipart sends a form's line breaks as CRLF: plain line breaks before the length is counted.
    .transform((value) => value.replace(/\r\n?/g, '\n'))
    .pipe(FreeText.max(500))
    .optional()
    .describe(
      'Free text about the whole batch, at most 500 characters, e.g. "handmade ceramic mugs for a coffee shop"; its words join the names.',
    ),
  locale: SingleLineText.regex(
    /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/,
    'must be a BCP 47 language tag such as en or de-CH',
  )
    .default('en')
    .describe('BCP 47 language tag of the names, e.g. en or de-CH.'),
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
