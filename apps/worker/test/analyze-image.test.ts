import { photo } from '@renamer/api/testing';
import { createLogger } from '@renamer/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisStep } from '../src/analysis/analysis-step';
import { createImageAnalyzer } from '../src/analysis/create-image-analyzer';
import type { ImageAnalyzer } from '../src/analysis/image-analyzer';
import { metadataStep } from '../src/analysis/metadata-step';
import { createStepPipeline } from '../src/analysis/step-pipeline';
import { ANALYSIS_FAILED, type AnalyzeImageDeps, analyzeImageHandler } from '../src/handlers/analyze-image';
import { createHandlerFixture, type HandlerFixture } from './support/handler-fixture';

let world: HandlerFixture;
beforeAll(async () => {
  world = await createHandlerFixture('analyze-image');
}, 60_000);
afterAll(() => world?.close());

const logger = createLogger('worker-test', process.env.LOG_LEVEL!);
const attempt = { logger, finalAttempt: false };
const lastAttempt = { logger, finalAttempt: true };

function handler(overrides: Partial<AnalyzeImageDeps> = {}) {
  return analyzeImageHandler({
    images: world.repositories.images,
    batches: world.repositories.batches,
    store: world.store,
    tracker: world.tracker,
    analyzer: createImageAnalyzer(),
    tempDir: world.workDir,
    ...overrides,
  });
}

const failingAnalyzer = (message: string): ImageAnalyzer => ({
  analyze: async () => {
    throw new Error(message);
  },
});

const imageRow = async (id: string) => (await world.repositories.images.findById(id))!;
const imageEvents = (imageId: string) =>
  world.events.flatMap((event) =>
    event.type === 'image.status' && event.imageId === imageId
      ? [{ status: event.status, proposedFilename: event.proposedFilename, error: event.error }]
      : [],
  );

describe('analyze-image', () => {
  it('keeps a skipped optional step in the image row, without its cause, and still names the image', async () => {
    const { batch, images } = await world.uploadBatch([{ name: 'IMG_0002.png', bytes: await photo('png', 5, 40, 60) }]);
    const brokenStep: AnalysisStep = {
      name: 'objects',
      source: 'a model that is down',
      timeoutMs: 1_000,
      optional: true,
      run: async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.7:9000');
      },
    };
    const analyzer = createStepPipeline([metadataStep, brokenStep]);

    await handler({ analyzer }).handle({ imageId: images[0]!.id, batchId: batch.id }, attempt);

    const row = await imageRow(images[0]!.id);
    expect(row.status).toBe('ready');
    expect(row.analysisSteps).toEqual([
      { step: 'metadata', source: 'file header (sharp)', outcome: 'ok', durationMs: expect.any(Number) },
      { step: 'objects', source: 'a model that is down', outcome: 'failed', durationMs: expect.any(Number) },
    ]);
  });

  it('claims the image, analyses its object and records a name from the batch keywords', async () => {
    const { batch, images } = await world.uploadBatch(
      [{ name: 'IMG_0001.png', bytes: await photo('png', 1, 60, 40) }],
      {
        keywords: ['red shoes'],
      },
    );
    const [image] = images;

    expect(await handler().handle({ imageId: image!.id, batchId: batch.id }, attempt)).toEqual({
      filename: 'red-shoes-landscape.png',
    });

    const row = await imageRow(image!.id);
    expect(row).toMatchObject({
      status: 'ready',
      filename: 'red-shoes-landscape.png',
      proposedFilename: 'red-shoes-landscape.png',
      attempts: 1,
      error: null,
      metadata: { width: 60, height: 40, format: 'png' },
      analysisSteps: [{ step: 'metadata', source: 'file header (sharp)', outcome: 'ok' }],
    });
    expect(imageEvents(image!.id).map((event) => event.status)).toEqual(['processing', 'ready']);
    expect((await world.repositories.batches.findById(batch.id))?.status).toBe('completed');
    expect(await world.repositories.filenameHistory.listForImage(image!.id)).toMatchObject([
      { oldFilename: null, newFilename: 'red-shoes-landscape.png', source: 'proposal', by: null },
    ]);
  });

  it('takes the next number when another worker took the name between its read and its write', async () => {
    const { batch, images } = await world.uploadBatch(
      [
        { name: 'a.png', bytes: await photo('png', 2, 30, 30) },
        { name: 'b.png', bytes: await photo('png', 3, 30, 30) },
      ],
      { keywords: ['beach'] },
    );
    const [mine, theirs] = images;
    let raced = false;
    const realImages = world.repositories.images;
    const racing = handler({
      images: {
        ...realImages,
        // The first read sees no name taken; the other worker writes `beach-square.png` before this one does.
        filenamesStartingWith: async (...args) => {
          const taken = await realImages.filenamesStartingWith(...args);
          if (!raced) {
            raced = true;
            await realImages.changeFilename(theirs!.id, {
              filename: 'beach-square.png',
              source: 'proposal',
              by: null,
              set: { proposedFilename: 'beach-square.png' },
            });
          }
          return taken;
        },
      },
    });

    expect(await racing.handle({ imageId: mine!.id, batchId: batch.id }, attempt)).toEqual({
      filename: 'beach-square-2.png',
    });
    expect((await imageRow(mine!.id)).filename).toBe('beach-square-2.png');
    expect((await imageRow(theirs!.id)).filename).toBe('beach-square.png');
    // The lost race left no trace: one history row, for the name the image got.
    expect((await world.repositories.filenameHistory.listForImage(mine!.id)).map((entry) => entry.newFilename)).toEqual(
      ['beach-square-2.png'],
    );
  });

  it('puts the image back in the queue, with no error shown, when an attempt fails and another follows', async () => {
    const { batch, images } = await world.uploadBatch([
      { name: 'notes.png', bytes: Buffer.from('not an image at all\n'.repeat(10)) },
    ]);
    const [image] = images;

    await expect(handler().handle({ imageId: image!.id, batchId: batch.id }, attempt)).rejects.toThrow();

    expect(await imageRow(image!.id)).toMatchObject({ status: 'queued', error: null, attempts: 1 });
    expect(imageEvents(image!.id).map((event) => event.status)).toEqual(['processing', 'queued']);
  });

  it('marks the image failed after the last attempt, with the generic message and never the cause', async () => {
    const { batch, images } = await world.uploadBatch([{ name: 'x.png', bytes: await photo('png', 4, 20, 20) }]);
    const [image] = images;
    const broken = handler({ analyzer: failingAnalyzer('cannot read /var/tmp/renamer-analyze-1/image') });

    await expect(broken.handle({ imageId: image!.id, batchId: batch.id }, lastAttempt)).rejects.toThrow(
      '/var/tmp/renamer-analyze-1/image',
    );

    expect(await imageRow(image!.id)).toMatchObject({ status: 'failed', error: ANALYSIS_FAILED });
    expect(imageEvents(image!.id).at(-1)).toEqual({
      status: 'failed',
      proposedFilename: undefined,
      error: ANALYSIS_FAILED,
    });
    expect(JSON.stringify(world.events)).not.toContain('/var/tmp');
    expect((await world.repositories.batches.findById(batch.id))?.status).toBe('failed');
  });

  it('marks an image failed when its job failed for good after its workers died, and leaves a finished one alone', async () => {
    const { batch, images } = await world.uploadBatch([
      { name: 'stalled.png', bytes: await photo('png', 5, 20, 20) },
      { name: 'done.png', bytes: await photo('png', 6, 20, 20) },
    ]);
    const [stalled, done] = images;
    // A worker claimed the image, then died; its job stalled past the limit.
    await world.repositories.images.startAttempt(stalled!.id, { from: ['queued'], to: 'processing' });
    await handler().handle({ imageId: done!.id, batchId: batch.id }, attempt);
    await handler().onFailedForGood({ imageId: stalled!.id, batchId: batch.id });
    await handler().onFailedForGood({ imageId: done!.id, batchId: batch.id });

    expect(await imageRow(stalled!.id)).toMatchObject({ status: 'failed', error: ANALYSIS_FAILED });
    expect(await imageRow(done!.id)).toMatchObject({ status: 'ready', error: null });
    expect((await world.repositories.batches.findById(batch.id))?.status).toBe('completed');
  });

  it('leaves an image that is no longer queued (cancelled meanwhile) untouched', async () => {
    const { batch, images } = await world.uploadBatch([{ name: 'c.png', bytes: await photo('png', 7, 20, 20) }]);
    const [image] = images;
    await world.repositories.images.update(image!.id, { status: 'cancelled' });

    expect(await handler().handle({ imageId: image!.id, batchId: batch.id }, attempt)).toEqual({
      skipped: 'not queued (cancelled or deleted)',
    });
    expect(await imageRow(image!.id)).toMatchObject({ status: 'cancelled', attempts: 0 });
  });
});
