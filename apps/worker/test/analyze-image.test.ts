import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { photo } from '@renamer/api/testing';
import { createLogger } from '@renamer/runtime';
import { tuningPhotos } from '@renamer/vision/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisStep } from '../src/analysis/analysis-step';
import { createImageAnalyzer } from '../src/analysis/create-image-analyzer';
import type { ImageAnalyzer } from '../src/analysis/image-analyzer';
import { metadataStep } from '../src/analysis/metadata-step';
import { OPTIONAL_STEPS } from '../src/analysis/optional-steps';
import { createStepPipeline } from '../src/analysis/step-pipeline';
import { createVisionToolkit } from '../src/analysis/vision-toolkit';
import { ANALYSIS_FAILED, type AnalyzeImageDeps, UNSAFE_IMAGE } from '../src/handlers/analyze-image';
import { createHandlerFixture, type HandlerFixture, headerOnlyAnalyzeHandler } from './support/handler-fixture';

let world: HandlerFixture;
beforeAll(async () => {
  world = await createHandlerFixture('analyze-image');
}, 60_000);
afterAll(() => world?.close());

const logger = createLogger('worker-test', process.env.LOG_LEVEL!);
const attempt = { logger, finalAttempt: false };
const lastAttempt = { logger, finalAttempt: true };

const handler = (overrides: Partial<AnalyzeImageDeps> = {}) => headerOnlyAnalyzeHandler(world, overrides);

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

  it('claims the image, analyses its object and records a name from the batch keywords, completed to three words', async () => {
    const { batch, images } = await world.uploadBatch(
      [{ name: 'IMG_0001.png', bytes: await photo('png', 1, 60, 40) }],
      {
        keywords: ['red shoes'],
      },
    );
    const [image] = images;

    expect(await handler().handle({ imageId: image!.id, batchId: batch.id }, attempt)).toEqual({
      filename: 'red-shoes-horizontal-format.png',
    });

    const row = await imageRow(image!.id);
    expect(row).toMatchObject({
      status: 'ready',
      filename: 'red-shoes-horizontal-format.png',
      proposedFilename: 'red-shoes-horizontal-format.png',
      visionTags: [{ label: 'red shoes', source: 'keywords', confidence: 1 }],
      seo: {
        score: expect.any(Number),
        reasons: expect.arrayContaining([{ rule: 'keyword_present', passed: true, detail: expect.any(String) }]),
      },
      attempts: 1,
      error: null,
      metadata: { width: 60, height: 40, format: 'png' },
      analysisSteps: [{ step: 'metadata', source: 'file header (sharp)', outcome: 'ok' }],
    });
    expect(imageEvents(image!.id).map((event) => event.status)).toEqual(['processing', 'ready']);
    // Finished by its process-batch job, once the batch is named as a whole.
    expect((await world.repositories.batches.findById(batch.id))?.status).toBe('processing');
    expect(await world.repositories.filenameHistory.listForImage(image!.id)).toMatchObject([
      { oldFilename: null, newFilename: 'red-shoes-horizontal-format.png', source: 'proposal', by: null },
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
        // The first read sees no name taken; the other worker writes `beach-square-format.png` before this one does.
        filenamesStartingWith: async (...args) => {
          const taken = await realImages.filenamesStartingWith(...args);
          if (!raced) {
            raced = true;
            await realImages.changeFilename(theirs!.id, {
              filename: 'beach-square-format.png',
              source: 'proposal',
              by: null,
              set: { proposedFilename: 'beach-square-format.png' },
            });
          }
          return taken;
        },
      },
    });

    expect(await racing.handle({ imageId: mine!.id, batchId: batch.id }, attempt)).toEqual({
      filename: 'beach-square-format-2.png',
    });
    expect((await imageRow(mine!.id)).filename).toBe('beach-square-format-2.png');
    expect((await imageRow(theirs!.id)).filename).toBe('beach-square-format.png');
    // The lost race left no trace: one history row, for the name the image got.
    expect((await world.repositories.filenameHistory.listForImage(mine!.id)).map((entry) => entry.newFilename)).toEqual(
      ['beach-square-format-2.png'],
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
    // A final failure settles the batch: its process-batch may have run already.
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

  it('refuses to name an image judged unsafe when told to, and fails it for good with a plain reason', async () => {
    const { batch, images } = await world.uploadBatch([{ name: 'u.png', bytes: await photo('png', 8, 20, 20) }]);
    const judgedUnsafe: AnalysisStep = {
      name: 'safety',
      source: 'a classifier that says unsafe',
      timeoutMs: 1_000,
      optional: true,
      run: async () => ({ safety: { unsafe: true, score: 0.93 } }),
    };
    const analyzer = createStepPipeline([metadataStep, judgedUnsafe]);

    expect(
      await handler({ analyzer, refuseUnsafe: async () => true }).handle(
        { imageId: images[0]!.id, batchId: batch.id },
        attempt,
      ),
    ).toEqual({ skipped: 'judged unsafe' });
    expect(await imageRow(images[0]!.id)).toMatchObject({ status: 'failed', error: UNSAFE_IMAGE, filename: null });

    const [kept] = (await world.uploadBatch([{ name: 'k.png', bytes: await photo('png', 9, 20, 20) }])).images;
    await handler({ analyzer }).handle({ imageId: kept!.id, batchId: kept!.batchId }, attempt);
    expect(await imageRow(kept!.id)).toMatchObject({ status: 'ready', safety: { unsafe: true, score: 0.93 } });
  });

  it('does not name an image it was told to judge when the safety step could not judge it', async () => {
    const { batch, images } = await world.uploadBatch([{ name: 'n.png', bytes: await photo('png', 11, 20, 20) }]);
    const unjudged = handler({ refuseUnsafe: async () => true });

    await expect(unjudged.handle({ imageId: images[0]!.id, batchId: batch.id }, attempt)).rejects.toThrow(
      'the safety step did not judge the image',
    );
    expect(await imageRow(images[0]!.id)).toMatchObject({ status: 'queued', filename: null });
  });

  it("never keeps a camera's name: with nothing else known, the frame's shape and the month name the picture", async () => {
    const { batch, images } = await world.uploadBatch([
      { name: 'IMG_0042.PNG', bytes: await photo('png', 10, 20, 20) },
    ]);
    const uploaded = (await imageRow(images[0]!.id)).createdAt;
    const month = uploaded.toLocaleString('en', { month: 'long', timeZone: 'UTC' });
    const year = uploaded.getUTCFullYear();

    expect(await handler().handle({ imageId: images[0]!.id, batchId: batch.id }, attempt)).toEqual({
      filename: `square-format-${month.toLowerCase()}-${year}.png`,
    });
    const row = await imageRow(images[0]!.id);
    expect(row).toMatchObject({ status: 'ready', altText: `A square picture from ${month} ${year}.`, visionTags: [] });
    expect(row.seo!.score).toBeLessThan(80);
    expect(row.seo!.reasons).toContainEqual(
      expect.objectContaining({ rule: 'descriptive', passed: false, detail: expect.stringContaining('vision model') }),
    );
  });

  it('names a real photograph from its pixels, the batch keywords and context, with score, safety, hash and alt text', async () => {
    const toolkit = createVisionToolkit({ ocrCachePath: join(world.workDir, 'ocr'), safetyThreshold: 0.7, llm: null });
    try {
      const kite = (await tuningPhotos()).find((photo) => photo.file === 'kite.jpg')!;
      const { batch, images } = await world.uploadBatch(
        [{ name: 'P1010042.JPG', bytes: await readFile(kite.path), type: 'image/jpeg' }],
        { keywords: ['beach kite'], context: 'Kites we sell for windy days at the seaside' },
      );
      const analyzer = createImageAnalyzer(toolkit, { steps: new Set(OPTIONAL_STEPS), llmTimeoutMs: 0 });

      const { filename } = (await handler({ analyzer }).handle(
        { imageId: images[0]!.id, batchId: batch.id },
        attempt,
      )) as {
        filename: string;
      };

      expect(filename).toMatch(/^beach-kite(-[a-z0-9]+){0,4}\.jpg$/);
      const row = await imageRow(images[0]!.id);
      expect(row.visionTags).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ source: 'keywords', label: 'beach kite' }),
          expect.objectContaining({ source: 'context' }),
          expect.objectContaining({ source: 'colour' }),
        ]),
      );
      expect(row.visionTags.map((tag) => tag.source)).not.toContain('filename');
      expect(row.seo?.score).toBeGreaterThanOrEqual(70);
      expect(row.safety).toEqual({ unsafe: false, score: expect.any(Number) });
      expect(row.perceptualHash).toMatch(/^[0-9a-f]{16}$/);
      expect(row.altText).toMatch(/kite/i);
      expect(row.altText!.length).toBeLessThanOrEqual(125);
      expect(row.analysisSteps.map((record) => record.outcome)).toEqual(Array(6).fill('ok'));
      const ready = world.events.find(
        (event) => event.type === 'image.status' && event.imageId === images[0]!.id && event.status === 'ready',
      );
      expect(ready).toMatchObject({ proposedFilename: filename, score: row.seo!.score });
    } finally {
      await toolkit.close();
    }
  }, 60_000);
});
