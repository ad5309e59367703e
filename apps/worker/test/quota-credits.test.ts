import { photo } from '@renamer/api/testing';
import { createLogger } from '@renamer/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisStep } from '../src/analysis/analysis-step';
import type { ImageAnalyzer } from '../src/analysis/image-analyzer';
import { metadataStep } from '../src/analysis/metadata-step';
import { createStepPipeline } from '../src/analysis/step-pipeline';
import {
  ANALYSIS_FAILED,
  type AnalyzeImageDeps,
  CREDIT_ANALYSIS_FAILED,
  CREDIT_WORKER_DIED,
  UNSAFE_IMAGE,
} from '../src/handlers/analyze-image';
import { createHandlerFixture, type HandlerFixture, headerOnlyAnalyzeHandler } from './support/handler-fixture';

/** The analysis handler's failures against the month's quota: the service's fault gives the image back, once. */

let world: HandlerFixture;
beforeAll(async () => {
  world = await createHandlerFixture('quota-credits');
}, 60_000);
afterAll(() => world?.close());

const logger = createLogger('worker-test', process.env.LOG_LEVEL!);
const attempt = { logger, finalAttempt: false };
const lastAttempt = { logger, finalAttempt: true };

const handler = (overrides: Partial<AnalyzeImageDeps> = {}) => headerOnlyAnalyzeHandler(world, overrides);

const broken: ImageAnalyzer = {
  analyze: async () => {
    throw new Error('the vision model answered 500');
  },
};

/** A batch of `count` images counted against the owner's quota, as an upload leaves it. */
async function countedBatch(count: number) {
  const files = await Promise.all(
    Array.from({ length: count }, async (_, index) => ({
      name: `IMG_${index}.png`,
      bytes: await photo('png', 300 + index + Math.floor(Math.random() * 1000), 20, 20),
    })),
  );
  const uploaded = await world.uploadBatch(files);
  expect(await world.repositories.users.reserveQuota(uploaded.user.id, count, new Date())).toBe(count);
  return uploaded;
}

const used = async (userId: string) => (await world.repositories.users.getUsage(userId, new Date()))?.used;
const credits = (userId: string) => world.repositories.quotaCredits.listForUser(userId);

describe('quota follows fault', () => {
  it('gives the count back at once when the analysis fails after its last attempt, and once when reported again', async () => {
    const { user, batch, images } = await countedBatch(2);
    const [image] = images;
    expect(await used(user.id)).toBe(2);

    await expect(
      handler({ analyzer: broken }).handle({ imageId: image!.id, batchId: batch.id }, attempt),
    ).rejects.toThrow();
    expect(await used(user.id)).toBe(2);
    await expect(
      handler({ analyzer: broken }).handle({ imageId: image!.id, batchId: batch.id }, lastAttempt),
    ).rejects.toThrow();

    expect(await world.repositories.images.findById(image!.id)).toMatchObject({
      status: 'failed',
      error: ANALYSIS_FAILED,
    });
    expect(await used(user.id)).toBe(1);
    // The queue reports the same job failed for good as well: no second credit.
    await handler().onFailedForGood({ imageId: image!.id, batchId: batch.id });
    expect(await used(user.id)).toBe(1);
    expect(await credits(user.id)).toMatchObject([{ imageId: image!.id, reason: CREDIT_ANALYSIS_FAILED }]);
  });

  it('gives the count back once for an image whose workers died too often, however often that is reported', async () => {
    const { user, batch, images } = await countedBatch(1);
    const [stalled] = images;
    await world.repositories.images.startAttempt(stalled!.id, { from: ['queued'], to: 'processing' });

    await handler().onFailedForGood({ imageId: stalled!.id, batchId: batch.id });
    await handler().onFailedForGood({ imageId: stalled!.id, batchId: batch.id });

    expect(await world.repositories.images.findById(stalled!.id)).toMatchObject({ status: 'failed' });
    expect(await used(user.id)).toBe(0);
    expect(await credits(user.id)).toMatchObject([{ imageId: stalled!.id, reason: CREDIT_WORKER_DIED }]);
  });

  it('gives back once for an image retried after a credited failure that fails again', async () => {
    const { user, batch, images } = await countedBatch(1);
    const [image] = images;
    await expect(
      handler({ analyzer: broken }).handle({ imageId: image!.id, batchId: batch.id }, lastAttempt),
    ).rejects.toThrow();
    // The person retries the batch: the image is queued again and fails for good a second time.
    await world.repositories.images.transitionByBatch(batch.id, {
      from: ['failed'],
      to: 'queued',
      set: { error: null },
    });
    await expect(
      handler({ analyzer: broken }).handle({ imageId: image!.id, batchId: batch.id }, lastAttempt),
    ).rejects.toThrow();

    expect(await used(user.id)).toBe(0);
    expect(await credits(user.id)).toHaveLength(1);
  });

  it('gives nothing back for an image judged unsafe (the file, not the service), nor for a cancelled one', async () => {
    const { user, batch, images } = await countedBatch(2);
    const [unsafe, cancelled] = images;
    const judgedUnsafe: AnalysisStep = {
      name: 'safety',
      source: 'a classifier that says unsafe',
      timeoutMs: 1_000,
      optional: true,
      run: async () => ({ safety: { unsafe: true, score: 0.97 } }),
    };
    await handler({
      analyzer: createStepPipeline([metadataStep, judgedUnsafe]),
      refuseUnsafe: async () => true,
    }).handle({ imageId: unsafe!.id, batchId: batch.id }, attempt);
    await world.repositories.images.transitionByBatch(batch.id, { from: ['queued'], to: 'cancelled' });
    expect(await handler().handle({ imageId: cancelled!.id, batchId: batch.id }, lastAttempt)).toEqual({
      skipped: 'not queued (cancelled or deleted)',
    });
    await handler().onFailedForGood({ imageId: cancelled!.id, batchId: batch.id });

    expect(await world.repositories.images.findById(unsafe!.id)).toMatchObject({
      status: 'failed',
      error: UNSAFE_IMAGE,
    });
    expect(await world.repositories.images.findById(cancelled!.id)).toMatchObject({ status: 'cancelled' });
    expect(await used(user.id)).toBe(2);
    expect(await credits(user.id)).toEqual([]);
  });
});
