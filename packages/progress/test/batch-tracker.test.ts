import { type BatchStatus, type ImageStatus, ProgressEvent } from '@renamer/contracts';
import { type Batch, createRepositories, type Image } from '@renamer/db';
import { BATCH_EVENTS, FINISHED_BATCH_STATUSES, IMAGE_EVENTS } from '@renamer/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { connectTestDb, createTestUser } from '../../db/test/support/database';
import { imageInput } from '../../db/test/support/fixtures';
import { type BatchTrackerDeps, createBatchTracker } from '../src/batch-tracker';

// The tracker runs against the real repositories on the test database; only the Redis publisher is replaced,
// by a recorder that also checks every event against the contract the API instances parse it with.
const client = connectTestDb(8);
const repos = createRepositories(client.db);
afterAll(() => client.close());

const FINISHED_AT = new Date('2030-01-02T03:04:05.000Z');

type BatchEvent = Extract<ProgressEvent, { type: 'batch.status' }>;
type ImageEvent = Extract<ProgressEvent, { type: 'image.status' }>;

async function batchWithImages(batchStatus: BatchStatus, imageStatuses: readonly ImageStatus[]) {
  const user = await createTestUser(client);
  const batch = await repos.batches.create({ userId: user.id, status: batchStatus, total: imageStatuses.length });
  const images = await repos.images.insertMany(
    imageStatuses.map((status) => imageInput(batch.id, user.id, { status })),
  );
  return { user, batch, images };
}

/**
 * A tracker over the real repositories. `writes` holds the batch rows its conditional updates changed, in the
 * order they returned; `beforeUpdate` lets a test hold an update back to force one interleaving.
 */
function trackerHarness(
  options: {
    beforeUpdate?: (status: BatchStatus | undefined) => Promise<void>;
    publish?: BatchTrackerDeps['publish'];
  } = {},
) {
  const published: ProgressEvent[] = [];
  const writes: Batch[] = [];
  const publishErrors: unknown[] = [];
  const tracker = createBatchTracker({
    batches: {
      findById: (id) => repos.batches.findById(id),
      update: async (id, update, condition) => {
        await options.beforeUpdate?.(update.status);
        const row = await repos.batches.update(id, update, condition);
        if (row) writes.push(row);
        return row;
      },
    },
    images: repos.images,
    publish:
      options.publish ??
      (async (event) => {
        published.push(ProgressEvent.parse(event));
      }),
    onPublishError: (error) => publishErrors.push(error),
    now: () => FINISHED_AT,
  });
  const batchEvents = () => published.filter((event): event is BatchEvent => event.type === 'batch.status');
  return { tracker, published, writes, publishErrors, batchEvents };
}

/** What the worker does when an analysis ends: one conditional image update, then the tracker. */
async function finishImage(
  tracker: ReturnType<typeof createBatchTracker>,
  image: Image,
  outcome: 'ready' | 'failed',
  index: number,
) {
  const event = outcome === 'ready' ? IMAGE_EVENTS.analysed : IMAGE_EVENTS.failedForGood;
  const result =
    outcome === 'ready'
      ? { proposedFilename: `photo-${index}.jpg`, filename: `photo-${index}.jpg` }
      : { error: 'Analysis failed' };
  const row = await repos.images.update(image.id, { status: event.to, ...result }, { expectStatus: event.from });
  if (!row) throw new Error(`image ${image.id} was not processing`);
  return tracker.imagesChanged(image.batchId, [row]);
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** The published batch statuses must never leave a finished status for `processing`. */
function expectNoStepBack(events: readonly BatchEvent[]) {
  const firstFinished = events.findIndex((event) => FINISHED_BATCH_STATUSES.includes(event.status));
  if (firstFinished >= 0) {
    expect(events.slice(firstFinished).map((event) => event.status)).not.toContain('processing');
  }
}

describe('batch tracker: the last images of a batch finishing at once', () => {
  const IMAGES = 20;

  it.each([
    {
      name: 'some ready, some failed',
      outcomes: (i: number) => (i % 3 === 0 ? 'failed' : 'ready'),
      final: 'completed',
    },
    { name: 'every one failed', outcomes: () => 'failed', final: 'failed' },
    { name: 'every one ready', outcomes: () => 'ready', final: 'completed' },
  ] as const)('$name: settles once as $final, with completedAt, and says so last', async ({ outcomes, final }) => {
    const { batch, images } = await batchWithImages('processing', Array<ImageStatus>(IMAGES).fill('processing'));
    const { tracker, writes, batchEvents } = trackerHarness();

    const views = await Promise.all([
      ...images.map((image, i) => finishImage(tracker, image, outcomes(i), i)),
      // The parent job settling the batch at the same moment.
      tracker.refreshBatch(batch.id),
    ]);

    const stored = await repos.batches.findById(batch.id);
    expect(stored).toMatchObject({ status: final, completedAt: FINISHED_AT });
    // Exactly one conditional update finished the batch; nothing else was written (it was already processing).
    expect(writes.map((row) => row.status)).toEqual([final]);
    expect(views.filter((view) => view?.status === final).length).toBeGreaterThan(0);

    const events = batchEvents();
    expect(events).toHaveLength(IMAGES + 1);
    expectNoStepBack(events);
    expect(events.at(-1)).toMatchObject({ status: final, processed: IMAGES, total: IMAGES, progress: 1 });
  });

  it('a batch still queued when its images finish steps through processing exactly once', async () => {
    const { batch, images } = await batchWithImages('queued', Array<ImageStatus>(IMAGES).fill('processing'));
    const { tracker, writes, batchEvents } = trackerHarness();

    await Promise.all(images.map((image, i) => finishImage(tracker, image, i === 0 ? 'failed' : 'ready', i)));

    expect(await repos.batches.findById(batch.id)).toMatchObject({ status: 'completed', completedAt: FINISHED_AT });
    expect(writes.map((row) => [row.status, row.completedAt])).toEqual([
      ['processing', null],
      ['completed', FINISHED_AT],
    ]);
    const events = batchEvents();
    expectNoStepBack(events);
    expect(events.at(-1)).toMatchObject({ status: 'completed', processed: IMAGES, total: IMAGES });
  });

  it('a tracker that read older counts and only moves the batch to processing does not leave it there', async () => {
    // Worker C read the counts while one image was still processing; worker A read them after the last image
    // finished. C's queued → processing lands between A's read and A's first step.
    const { batch, images } = await batchWithImages('queued', ['ready', 'processing']);
    const cHeld = deferred();
    const cReleased = deferred();
    const c = trackerHarness({
      beforeUpdate: async () => {
        cHeld.resolve();
        await cReleased.promise;
      },
    });
    const aHeld = deferred();
    const aReleased = deferred();
    let aFirst = true;
    const a = trackerHarness({
      beforeUpdate: async () => {
        if (!aFirst) return;
        aFirst = false;
        aHeld.resolve();
        await aReleased.promise;
      },
    });

    const cRefresh = c.tracker.refreshBatch(batch.id);
    await cHeld.promise;
    const last = images.find((image) => image.status === 'processing')!;
    const aRefresh = finishImage(a.tracker, last, 'ready', 1);
    await aHeld.promise;
    cReleased.resolve();
    expect(await cRefresh).toMatchObject({ status: 'processing', processed: 1, total: 2 });
    aReleased.resolve();
    expect(await aRefresh).toMatchObject({ status: 'completed', processed: 2, total: 2 });

    expect(await repos.batches.findById(batch.id)).toMatchObject({ status: 'completed', completedAt: FINISHED_AT });
    expect(a.batchEvents().at(-1)).toMatchObject({ status: 'completed', processed: 2, total: 2 });
  });
});

describe('batch tracker: cancel racing the last step', () => {
  it.each([
    { name: 'before the tracker writes anything', holdAt: 'processing' },
    { name: 'between processing and completed', holdAt: 'completed' },
  ] as const)('a cancel landing $name is not overwritten', async ({ holdAt }) => {
    const { batch } = await batchWithImages('queued', ['ready', 'failed']);
    const cancelledAt = new Date('2030-01-01T00:00:00.000Z');
    const { tracker, writes, batchEvents } = trackerHarness({
      beforeUpdate: async (status) => {
        if (status !== holdAt) return;
        const cancelled = await repos.batches.update(
          batch.id,
          { status: BATCH_EVENTS.cancel.to, completedAt: cancelledAt },
          { expectStatus: BATCH_EVENTS.cancel.from },
        );
        expect(cancelled?.status).toBe('cancelled');
      },
    });

    const view = await tracker.refreshBatch(batch.id);

    expect(await repos.batches.findById(batch.id)).toMatchObject({ status: 'cancelled', completedAt: cancelledAt });
    expect(writes.map((row) => row.status)).toEqual(holdAt === 'processing' ? [] : ['processing']);
    expect(view).toMatchObject({ status: 'cancelled', processed: 2, total: 2 });
    expect(batchEvents().map((event) => event.status)).toEqual(['cancelled']);
  });
});

describe('batch tracker: leaving the finish to the batch job', () => {
  it('moves a batch whose images are all done only as far as processing, until asked to finish it', async () => {
    const { batch, images } = await batchWithImages('queued', ['ready', 'ready']);
    const { tracker, batchEvents } = trackerHarness();

    const view = await tracker.imagesChanged(batch.id, images, { finish: false });
    expect(view).toMatchObject({ status: 'processing', processed: 2, progress: 1 });
    expect(await repos.batches.findById(batch.id)).toMatchObject({ status: 'processing', completedAt: null });

    await tracker.refreshBatch(batch.id);
    expect(await repos.batches.findById(batch.id)).toMatchObject({ status: 'completed', completedAt: FINISHED_AT });
    expect(batchEvents().map((event) => event.status)).toEqual(['processing', 'completed']);
  });
});

describe('batch tracker: events', () => {
  it('publishes each image, then the batch, with proposedFilename and error only when present', async () => {
    const { batch, images } = await batchWithImages('processing', ['ready', 'failed', 'cancelled']);
    const { tracker, published } = trackerHarness();
    const [ready, failed, cancelled] = images as [Image, Image, Image];

    await tracker.imagesChanged(batch.id, [
      { id: ready.id, batchId: batch.id, status: 'ready', proposedFilename: 'alps.jpg', error: null },
      { id: failed.id, batchId: batch.id, status: 'failed', proposedFilename: null, error: 'Analysis failed' },
      { id: cancelled.id, batchId: batch.id, status: 'cancelled' },
    ]);

    expect(published.map((event) => event.type)).toEqual([
      'image.status',
      'image.status',
      'image.status',
      'batch.status',
    ]);
    const [readyEvent, failedEvent, cancelledEvent] = published as [ImageEvent, ImageEvent, ImageEvent];
    expect(readyEvent).toMatchObject({ imageId: ready.id, status: 'ready', proposedFilename: 'alps.jpg' });
    expect(readyEvent).not.toHaveProperty('error');
    expect(failedEvent).toMatchObject({ imageId: failed.id, status: 'failed', error: 'Analysis failed' });
    expect(failedEvent).not.toHaveProperty('proposedFilename');
    expect(cancelledEvent).not.toHaveProperty('proposedFilename');
    expect(cancelledEvent).not.toHaveProperty('error');
    expect(published[3]).toEqual({
      type: 'batch.status',
      batchId: batch.id,
      status: 'completed',
      processed: 3,
      total: 3,
      progress: 1,
      at: FINISHED_AT.toISOString(),
    });
  });

  it('a deleted batch: refreshBatch returns null and publishes nothing', async () => {
    const { user, batch } = await batchWithImages('processing', ['ready']);
    expect(await repos.batches.delete(batch.id, user.id)).toBe(true);
    const { tracker, published, writes } = trackerHarness();

    expect(await tracker.refreshBatch(batch.id)).toBeNull();
    expect(published).toEqual([]);
    expect(writes).toEqual([]);
  });

  it('a publish that fails is reported to onPublishError and the change still goes through', async () => {
    const { batch, images } = await batchWithImages('processing', ['ready']);
    const outage = new Error('redis down');
    const { tracker, publishErrors } = trackerHarness({ publish: () => Promise.reject(outage) });

    const view = await tracker.imagesChanged(batch.id, [{ id: images[0]!.id, batchId: batch.id, status: 'ready' }]);

    expect(view).toMatchObject({ status: 'completed', processed: 1, total: 1 });
    expect(await repos.batches.findById(batch.id)).toMatchObject({ status: 'completed' });
    expect(publishErrors).toEqual([outage, outage]);
  });
});
