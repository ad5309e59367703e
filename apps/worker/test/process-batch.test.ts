import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processBatchHandler } from '../src/handlers/process-batch';
import { createHandlerFixture, type HandlerFixture } from './support/handler-fixture';

let world: HandlerFixture;
beforeAll(async () => {
  world = await createHandlerFixture('process-batch');
}, 60_000);
afterAll(() => world?.close());

describe('process-batch', () => {
  it('settles the batch once every image job of the round finished, and says so', async () => {
    const { batch, images } = await world.uploadBatch([
      { name: 'one.png', bytes: Buffer.from('one') },
      { name: 'two.png', bytes: Buffer.from('two') },
    ]);
    await world.repositories.batches.update(batch.id, { status: 'processing' });
    await world.repositories.images.update(images[0]!.id, { status: 'ready', filename: 'one.png' });
    await world.repositories.images.update(images[1]!.id, {
      status: 'failed',
      error: 'The image could not be analysed.',
    });

    const result = await processBatchHandler({ tracker: world.tracker }).handle({ batchId: batch.id, round: 1 });

    expect(result).toEqual({ status: 'completed' });
    const settled = await world.repositories.batches.findById(batch.id);
    expect(settled?.status).toBe('completed');
    expect(settled?.completedAt).toBeInstanceOf(Date);
    expect(world.events.filter((event) => event.type === 'batch.status' && event.batchId === batch.id)).toEqual([
      expect.objectContaining({ status: 'completed', processed: 2, total: 2, progress: 1 }),
    ]);
  });

  it('reports a batch deleted meanwhile, without failing the job', async () => {
    const { batch } = await world.uploadBatch([{ name: 'gone.png', bytes: Buffer.from('gone') }]);
    await world.client.sql`delete from batches where id = ${batch.id}`;

    expect(await processBatchHandler({ tracker: world.tracker }).handle({ batchId: batch.id, round: 1 })).toEqual({
      status: 'deleted',
    });
  });
});
