import { BatchStatusResponse, ImageList, type ImageView, ProposeChanges } from '@renamer/contracts';
import { z } from 'zod';
import type { ApiClient } from './client';
import { CliError, EXIT } from './errors';
import { createReporter, watchBatches } from './progress';

const PAGE = 100;

export interface AgainOptions {
  /** Comma-separated image ids of the batch; every image when absent. */
  images?: string;
  includeEdited?: boolean;
  dryRun?: boolean;
  /** Saved on the batch (PATCH) before naming again. */
  template?: string;
  instructions?: string;
}

/** `renamer rename --again BATCH --json`: one change per image whose name changed (or would). */
export const AgainResult = z.object({
  server: z.string(),
  batchId: z.uuid(),
  dryRun: z.boolean(),
  status: z.string().describe('The batch’s status at the end: completed once the names are proposed again.'),
  changes: z.array(
    z.object({ imageId: z.uuid(), originalName: z.string(), from: z.string(), to: z.string() }).describe('A new name.'),
  ),
  unchanged: z.number().int().min(0).describe('Images named again that kept their names.'),
  exitCode: z.number().int(),
});
export type AgainResult = z.infer<typeof AgainResult>;

/** The JSON Schema of `--again --json`, as committed in schema/rename-again-result.schema.json. */
export const againResultJsonSchema = () =>
  z.toJSONSchema(
    AgainResult.meta({
      title: 'renamer rename --again --json',
      $id: 'https://renamer.dev/schemas/cli/rename-again-result.json',
    }),
    { target: 'draft-2020-12' },
  );

const Uuid = z.uuid();

/**
 * `renamer rename --again BATCH`: the batch's names proposed again from the stored analysis
 * (POST /api/batch/:id/propose), after saving `--template` and `--instructions` on the batch. `--dry-run` asks what
 * would change and changes nothing; otherwise the batch is followed to its end and the names compared.
 */
export async function renameAgain(client: ApiClient, batchId: string, options: AgainOptions): Promise<AgainResult> {
  if (!Uuid.safeParse(batchId).success) throw new CliError(`--again takes a batch id, not ${batchId}`, EXIT.usage);
  const imageIds = options.images
    ?.split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const wrong = imageIds?.filter((id) => !Uuid.safeParse(id).success) ?? [];
  if (wrong.length > 0) throw new CliError(`--images takes image ids: not ${wrong.join(', ')}`, EXIT.usage);
  if (imageIds?.length === 0) throw new CliError('--images names no image', EXIT.usage);
  const settings = {
    ...(options.template !== undefined ? { template: options.template.trim() || null } : {}),
    ...(options.instructions !== undefined ? { instructions: options.instructions.trim() || null } : {}),
  };
  if (options.dryRun && Object.keys(settings).length > 0) {
    throw new CliError(
      '--dry-run changes nothing, and --template or --instructions would change the batch: save them without --dry-run, or preview the batch as it is',
      EXIT.usage,
    );
  }

  const base = `/api/batch/${batchId}`;
  const body = { ...(imageIds ? { imageIds } : {}), includeEdited: options.includeEdited ?? false };
  const before = await batchImages(client, batchId);
  const scope = imageIds ? new Set(imageIds) : new Set(before.keys());
  const originalName = (id: string) => before.get(id)?.originalFilename ?? id;

  if (options.dryRun) {
    const { changes } = await client.request(`${base}/propose?dryRun=true`, ProposeChanges, {
      method: 'POST',
      json: body,
    });
    const status = await client.request(`${base}/status`, BatchStatusResponse);
    return {
      server: client.connection.server,
      batchId,
      dryRun: true,
      status: status.status,
      changes: changes.map((change) => ({ ...change, originalName: originalName(change.imageId) })),
      unchanged: scope.size - changes.length,
      exitCode: EXIT.done,
    };
  }

  if (Object.keys(settings).length > 0) {
    // Saved only when naming again can follow: a batch still at work would take them into its names halfway.
    const current = await client.request(`${base}/status`, BatchStatusResponse);
    if (current.status !== 'completed') {
      throw new CliError(
        `batch ${batchId} is ${current.status}: names can be proposed again once it is completed; nothing was changed`,
        EXIT.failure,
      );
    }
    await client.request(base, BatchStatusResponse, { method: 'PATCH', json: settings });
  }
  await client.request(`${base}/propose`, BatchStatusResponse, { method: 'POST', json: body });
  const reporter = createReporter(false);
  let final: BatchStatusResponse | undefined;
  try {
    reporter.line(`naming ${imageIds ? `${imageIds.length} images of ` : ''}batch ${batchId} again…`);
    final = (await watchBatches(client, [batchId], reporter)).get(batchId);
  } finally {
    reporter.stop();
  }
  const after = await batchImages(client, batchId);
  const changes = [...scope].flatMap((id) => {
    const from = before.get(id)?.filename;
    const to = after.get(id)?.filename;
    return from && to && from !== to ? [{ imageId: id, originalName: originalName(id), from, to }] : [];
  });
  // The watch ends on a finished status; without one the batch was not seen to finish.
  const status = final?.status ?? 'unknown';
  return {
    server: client.connection.server,
    batchId,
    dryRun: false,
    status,
    changes,
    unchanged: scope.size - changes.length,
    exitCode: status === 'completed' ? EXIT.done : EXIT.failure,
  };
}

/** Every image of the batch by id, a page at a time. */
async function batchImages(client: ApiClient, batchId: string): Promise<Map<string, ImageView>> {
  const found = new Map<string, ImageView>();
  let cursor: string | null = '';
  while (cursor !== null) {
    const page: z.infer<typeof ImageList> = await client.request(
      `/api/image/batch/${batchId}?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      ImageList,
    );
    for (const image of page.items) found.set(image.id, image);
    cursor = page.nextCursor;
  }
  return found;
}
