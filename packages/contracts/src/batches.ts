import { z } from 'zod';
import { BatchStatus } from './enums';
import { ErrorCodeSchema } from './errors';
import { IMAGE_FORMATS_IN_WORDS } from './image-formats';
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
  template: z
    .string()
    .nullable()
    .describe('The naming template in force (`acme-{subject}-{seq:3}`); null means {subject}.'),
  instructions: z.string().nullable().describe('What the person asks of the vision model, or null.'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
export type BatchStatusResponse = z.infer<typeof BatchStatusResponse>;

/** A batch of the list: its status, and when `RETAIN_ORIGINALS_DAYS` removes it. */
export const BatchListItem = BatchStatusResponse.extend({
  removesAt: z.iso
    .datetime()
    .nullable()
    .describe(
      'When the retention policy removes the batch with its images (never sooner than 7 days after the list first showed it); null when originals are kept until deleted.',
    ),
});
export type BatchListItem = z.infer<typeof BatchListItem>;

export const BatchList = z.object({ items: z.array(BatchListItem), nextCursor: z.string().nullable() });

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
/** The longest naming template and model instructions kept (the columns' limits too). */
export const MAX_TEMPLATE_LENGTH = 200;
export const MAX_INSTRUCTIONS_LENGTH = 500;
/** Checked against the naming rules by the service: an unknown token or a template that can never give a valid name is `invalid_template`. */
export const NamingTemplate = SingleLineText.max(MAX_TEMPLATE_LENGTH).describe(
  'A naming template: literal text and the tokens {subject}, {keywords}, {place}, {date} ({date:YYYY-MM-DD}, {date:YYYY-MM}, {date:YYYY}), {camera}, {original}, {seq} ({seq:N}); e.g. "acme-{subject}-{seq:3}".',
);
export const ModelInstructions = FreeText.max(MAX_INSTRUCTIONS_LENGTH).describe(
  `At most ${MAX_INSTRUCTIONS_LENGTH} characters for the vision model, e.g. "mention the product colour"; unused without a model.`,
);
/** Multipart sends a form's line breaks as CRLF: plain line breaks before the length is counted. */
const formText = <T extends z.ZodType<unknown, string>>(schema: T) =>
  z
    .string()
    .transform((value) => value.replace(/\r\n?/g, '\n'))
    .pipe(schema);
const BatchName = SingleLineText.max(200).describe('The batch’s name, e.g. "Spring shoes".');

/**
 * What `POST /api/batch` does with a file the person already holds in another batch: `refuse` it
 * (`duplicate_file` with `duplicateOf`), or `allow` it as a new image of this batch with its own stored copy.
 */
export const DuplicatesMode = z
  .enum(['refuse', 'allow'])
  .describe(
    '`refuse` (the default): a file you already hold in another batch is refused as duplicate_file with duplicateOf; `allow`: it becomes a new image of this batch, counted against the quota, with its own stored copy. A file repeated within one request is always refused.',
  );
export type DuplicatesMode = z.infer<typeof DuplicatesMode>;

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
  context: formText(BatchContext)
    .optional()
    .describe(
      'Free text about the whole batch, at most 500 characters, e.g. "handmade ceramic mugs for a coffee shop"; only its words about what the pictures show join the names.',
    ),
  locale: Locale.default('en'),
  template: NamingTemplate.optional().describe('A naming template; the account’s default when absent.'),
  instructions: formText(ModelInstructions)
    .optional()
    .describe('Instructions for the vision model; the account’s default when absent.'),
  duplicates: DuplicatesMode.default('refuse'),
});

export type UploadFields = z.infer<typeof UploadFields>;

/** What a batch's later proposals and keyword suggestions use; at least one field. */
export const UpdateBatchBody = z
  .object({
    name: BatchName.nullable().optional(),
    keywords: Keywords.optional().describe('Replaces the batch’s keywords: at most 20, each at most 60 characters.'),
    context: BatchContext.nullable().optional().describe('At most 500 characters; null clears it.'),
    locale: Locale.optional(),
    template: NamingTemplate.nullable().optional().describe('null clears it: names are then {subject} alone.'),
    instructions: ModelInstructions.nullable().optional().describe('null clears them.'),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'name at least one field to change');
export type UpdateBatchBody = z.infer<typeof UpdateBatchBody>;

export const ProposeBody = z.object({
  imageIds: z
    .array(z.uuid())
    .min(1)
    .max(1000)
    .optional()
    .describe('Only these images of the batch; every image by default.'),
  includeEdited: z
    .boolean()
    .default(false)
    .describe('Also name again the images a person renamed or approved (approved ones go back to ready).'),
});
export type ProposeBody = z.infer<typeof ProposeBody>;

export const ProposeQuery = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .describe('Answer the changes it would make, without making them.'),
});

export const ProposeChanges = z.object({
  changes: z
    .array(z.object({ imageId: z.uuid(), from: z.string(), to: z.string() }))
    .describe('Each image whose name would change, from its current name to the new one.'),
});

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
    .describe(
      `The images, one part each (${IMAGE_FORMATS_IN_WORDS.pictures}, or camera RAW: ${IMAGE_FORMATS_IN_WORDS.cameraRaw}), with their file names.`,
    ),
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
