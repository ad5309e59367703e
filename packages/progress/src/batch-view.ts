import type { BatchStatusResponse, ImageStatusCounts } from '@renamer/contracts';
import type { Batch } from '@renamer/db';
import { batchProgress } from '@renamer/domain';

/** The batch as GET /status, the WebSocket `subscribed` message and the list show it. */
export function toBatchStatusView(batch: Batch, counts: ImageStatusCounts): BatchStatusResponse {
  const { total, processed, progress } = batchProgress(counts);
  return {
    batchId: batch.id,
    name: batch.name,
    status: batch.status,
    total,
    processed,
    progress,
    counts,
    locale: batch.locale,
    keywords: batch.keywords,
    context: batch.context,
    template: batch.template,
    instructions: batch.instructions,
    createdAt: batch.createdAt.toISOString(),
    updatedAt: batch.updatedAt.toISOString(),
    completedAt: batch.completedAt?.toISOString() ?? null,
  };
}
