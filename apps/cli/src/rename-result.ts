import { IMAGE_STATUSES } from '@renamer/contracts';
import { z } from 'zod';

/** What became of one file, in `renamer rename`'s table and in its `--json` document. */
export const FILE_OUTCOMES = [
  'uploaded',
  'already_uploaded',
  'would_upload',
  'rejected',
  'over_quota',
  'failed',
] as const;

export const RenamedFile = z.object({
  path: z.string().describe('The file as found, absolute.'),
  originalName: z.string(),
  newName: z.string().nullable().describe('The image’s current name on the server; null when it has none.'),
  deliveredAs: z
    .string()
    .nullable()
    .describe('Where the file went: its entry in the archive, its copy, or its new path; null when nowhere.'),
  score: z.number().int().min(0).max(100).nullable().describe('The SEO score of the new name.'),
  status: z.enum(IMAGE_STATUSES).nullable(),
  outcome: z.enum(FILE_OUTCOMES),
  imageId: z.uuid().nullable(),
  batchId: z.uuid().nullable(),
  problem: z.object({ code: z.string(), detail: z.string() }).optional().describe('Why it was not renamed.'),
});
export type RenamedFile = z.infer<typeof RenamedFile>;

/** `renamer rename --json`: exactly this one document on stdout (progress goes to stderr). */
export const RenameResult = z.object({
  server: z.string(),
  dryRun: z.boolean(),
  files: z.array(RenamedFile),
  batches: z.array(z.uuid()).describe('The batches the files are in.'),
  uploaded: z.number().int().min(0),
  alreadyUploaded: z.number().int().min(0),
  notRenamed: z.number().int().min(0).describe('Files refused, over the quota, failed, or without a name.'),
  archive: z.string().optional().describe('With --out: the ZIP written.'),
  undoManifest: z.string().optional().describe('With --in-place or --copy-to: how to undo the run.'),
  exitCode: z.number().int().describe('0 every file renamed, 3 some were not.'),
});
export type RenameResult = z.infer<typeof RenameResult>;

/** The JSON Schema of `--json`, as committed in schema/rename-result.schema.json. */
export const renameResultJsonSchema = () =>
  z.toJSONSchema(
    RenameResult.meta({ title: 'renamer rename --json', $id: 'https://renamer.dev/schemas/cli/rename-result.json' }),
    {
      target: 'draft-2020-12',
    },
  );
