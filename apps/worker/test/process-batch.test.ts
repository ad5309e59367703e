import type { VisionTag } from '@renamer/contracts';
import { createLogger } from '@renamer/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processBatchHandler } from '../src/handlers/process-batch';
import { batchNamer } from '../src/naming/batch-renamer';
import { createHandlerFixture, type HandlerFixture } from './support/handler-fixture';

let world: HandlerFixture;
beforeAll(async () => {
  world = await createHandlerFixture('process-batch');
}, 60_000);
afterAll(() => world?.close());

const job = { logger: createLogger('worker-test', process.env.LOG_LEVEL!), finalAttempt: false };
const handler = () =>
  processBatchHandler({
    tracker: world.tracker,
    nameAsWhole: batchNamer({ images: world.repositories.images, batches: world.repositories.batches }),
  });

const SKY: VisionTag[] = [
  { label: 'kite', confidence: 0.8, source: 'objects' },
  { label: 'sky', confidence: 0.7, source: 'scene' },
];
const HASH = 'f0e1d2c3b4a59687';
/** The image as the analyser leaves it: ready, named by its own proposal, with its tags and hash. */
async function proposed(id: string, filename: string, tags: VisionTag[], perceptualHash: string) {
  await world.repositories.images.changeFilename(id, {
    filename,
    source: 'proposal',
    by: null,
    set: {
      status: 'ready',
      proposedFilename: filename,
      visionTags: tags,
      perceptualHash,
      metadata: { width: 10, height: 10, format: 'jpeg', hasAlpha: false },
    },
  });
}

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

    const result = await handler().handle({ batchId: batch.id, round: 1 }, job);

    expect(result).toEqual({ status: 'completed', renamed: 0 });
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

    expect(await handler().handle({ batchId: batch.id, round: 1 }, job)).toEqual({ status: 'deleted', renamed: 0 });
  });

  it('names near-duplicates as a whole, told apart by a word, and leaves a name a person gave alone', async () => {
    const { batch, images } = await world.uploadBatch(
      ['a.jpg', 'b.jpg', 'c.jpg'].map((name) => ({ name, bytes: Buffer.from(name) })),
    );
    const [red, blue, mine] = images;
    // Each named alone, as its worker did: the second took the bare `-2`.
    await proposed(red!.id, 'kite-sky.jpg', [...SKY, { label: 'red', confidence: 0.9, source: 'colour' }], HASH);
    await proposed(blue!.id, 'kite-sky-2.jpg', [...SKY, { label: 'blue', confidence: 0.9, source: 'colour' }], HASH);
    await proposed(mine!.id, 'kite-sky-3.jpg', SKY, HASH);
    await world.repositories.images.changeFilename(mine!.id, { filename: 'my-kite.jpg', source: 'user', by: null });

    const result = await handler().handle({ batchId: batch.id, round: 1 }, job);

    const names = await Promise.all(
      images.map(async (image) => (await world.repositories.images.findById(image.id))!.filename),
    );
    expect(names[2]).toBe('my-kite.jpg');
    expect(names[0]).toMatch(/^kite-sky.*red.*\.jpg$/);
    expect(names[1]).toMatch(/^kite-sky.*blue.*\.jpg$/);
    expect(result).toEqual({ status: 'completed', renamed: 2 });
    const renamedEvents = world.events.filter(
      (event) => event.type === 'image.status' && event.batchId === batch.id && event.status === 'ready',
    );
    expect(renamedEvents).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ imageId: red!.id, proposedFilename: names[0], score: expect.any(Number) }),
        expect.objectContaining({ imageId: blue!.id, proposedFilename: names[1], score: expect.any(Number) }),
      ]),
    );
    expect(
      (await world.repositories.filenameHistory.listForImage(blue!.id)).map((entry) => [
        entry.oldFilename,
        entry.newFilename,
      ]),
    ).toEqual([
      ['kite-sky-2.jpg', names[1]],
      [null, 'kite-sky-2.jpg'],
    ]);
  });

  it('leaves the names of a batch already finished as they are, when its job runs late', async () => {
    const { batch, images } = await world.uploadBatch(
      ['d.jpg', 'e.jpg'].map((name) => ({ name, bytes: Buffer.from(name) })),
    );
    await proposed(images[0]!.id, 'kite-sky.jpg', [...SKY, { label: 'red', confidence: 0.9, source: 'colour' }], HASH);
    await proposed(
      images[1]!.id,
      'kite-sky-2.jpg',
      [...SKY, { label: 'blue', confidence: 0.9, source: 'colour' }],
      HASH,
    );
    await world.repositories.batches.update(batch.id, { status: 'completed', completedAt: new Date() });

    expect(await handler().handle({ batchId: batch.id, round: 2 }, job)).toEqual({ status: 'completed', renamed: 0 });
    expect((await world.repositories.images.findById(images[1]!.id))?.filename).toBe('kite-sky-2.jpg');
  });

  it('settles the batch even when naming it as a whole fails, and when the job itself failed for good', async () => {
    const { batch, images } = await world.uploadBatch([{ name: 'f.jpg', bytes: Buffer.from('f') }]);
    await proposed(images[0]!.id, 'kite.jpg', SKY, HASH);
    await world.repositories.batches.update(batch.id, { status: 'processing' });
    const failingNamer = processBatchHandler({
      tracker: world.tracker,
      nameAsWhole: async () => {
        throw new Error('database went away');
      },
    });

    expect(await failingNamer.handle({ batchId: batch.id, round: 1 }, job)).toEqual({
      status: 'completed',
      renamed: 0,
    });

    await world.repositories.batches.update(batch.id, { status: 'processing', completedAt: null });
    await failingNamer.onFailedForGood({ batchId: batch.id, round: 1 });
    expect((await world.repositories.batches.findById(batch.id))?.status).toBe('completed');
  });
});
