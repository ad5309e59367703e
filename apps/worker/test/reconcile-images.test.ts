import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeQueues, createBatchScheduler, createFlowProducer, createQueues, enqueue } from '@renamer/jobs';
import { createLogger } from '@renamer/runtime';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileImagesHandler } from '../src/handlers/reconcile-images';
import { createHandlerFixture, type HandlerFixture } from './support/handler-fixture';

const redisPrefix = `${process.env.REDIS_PREFIX}reconcile-${randomUUID().slice(0, 8)}:`;
const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
const queues = createQueues(connection, redisPrefix);
const flows = createFlowProducer(connection, redisPrefix);
const context = { logger: createLogger('worker-test', process.env.LOG_LEVEL!), finalAttempt: false };

let world: HandlerFixture;
beforeAll(async () => {
  world = await createHandlerFixture('reconcile-images');
}, 60_000);
afterAll(async () => {
  await flows.close();
  await closeQueues(queues);
  const keys = await connection.keys(`${redisPrefix}*`);
  if (keys.length) await connection.del(...keys);
  connection.disconnect();
  await world?.close();
});

/** A reconciler whose clock reads one minute after `cutoff`, so `olderThanSeconds: 60` means changed before it. */
const reconcileAsOf = (cutoff: Date) =>
  reconcileImagesHandler({
    images: world.repositories.images,
    scheduler: createBatchScheduler({ flows, queues }),
    now: () => new Date(cutoff.getTime() + 60_000),
  });

/** A moment between two writes (the database stamps `updated_at` on every change, so rows cannot be backdated). */
async function momentAfterWrites(): Promise<Date> {
  await sleep(20);
  const moment = new Date();
  await sleep(20);
  return moment;
}

const queuedJob = async (imageId: string) => (await queues.images.getJob(`analyze-${imageId}`))?.data;

describe('reconcile-images', () => {
  it('queues again the images left waiting without a job, and only those', async () => {
    const first = await world.uploadBatch([
      { name: 'lost.png', bytes: Buffer.from('lost') },
      { name: 'waiting.png', bytes: Buffer.from('waiting') },
      { name: 'done.png', bytes: Buffer.from('done') },
    ]);
    const second = await world.uploadBatch([{ name: 'also-lost.png', bytes: Buffer.from('also lost') }]);
    const [lost, waiting, done] = first.images;
    const [alsoLost] = second.images;
    await world.repositories.images.update(done!.id, { status: 'ready' });
    const cutoff = await momentAfterWrites();
    const [fresh] = (await world.uploadBatch([{ name: 'fresh.png', bytes: Buffer.from('fresh') }])).images;
    // This one's job is still in the queue: the reconciler must not queue it twice.
    await enqueue(queues, 'analyze-image', { imageId: waiting!.id, batchId: first.batch.id });

    expect(await reconcileAsOf(cutoff).handle({ olderThanSeconds: 60 }, context)).toEqual({ stale: 3, requeued: 2 });

    expect(await queuedJob(lost!.id)).toEqual({ imageId: lost!.id, batchId: first.batch.id });
    expect(await queuedJob(alsoLost!.id)).toEqual({ imageId: alsoLost!.id, batchId: second.batch.id });
    expect(await queuedJob(fresh!.id)).toBeUndefined();
    expect(await queuedJob(done!.id)).toBeUndefined();
    expect(await queues.images.getJobCounts('waiting')).toEqual({ waiting: 3 });
  });

  it('finds a lost image behind a backlog of more than a page of images whose jobs are still waiting', async () => {
    const backlog = await world.uploadBatch(
      Array.from({ length: 501 }, (_, i) => ({ name: `b${i}.png`, bytes: Buffer.from(`backlog ${i}`) })),
    );
    const lost = await world.uploadBatch([{ name: 'behind.png', bytes: Buffer.from('behind the backlog') }]);
    const cutoff = await momentAfterWrites();
    await Promise.all(
      backlog.images.map((image) => enqueue(queues, 'analyze-image', { imageId: image.id, batchId: backlog.batch.id })),
    );

    const { stale } = await reconcileAsOf(cutoff).handle({ olderThanSeconds: 60 }, context);

    expect(stale).toBeGreaterThan(500);
    expect(await queuedJob(lost.images[0]!.id)).toEqual({ imageId: lost.images[0]!.id, batchId: lost.batch.id });
  });
});
