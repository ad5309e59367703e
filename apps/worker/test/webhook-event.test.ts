import { createBatchTracker, type TrackerNotice } from '@renamer/progress';
import { createLogger } from '@renamer/runtime';
import { generateWebhookSecret } from '@renamer/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEventHandler } from '../src/handlers/webhooks';
import { createHandlerFixture, type HandlerFixture } from './support/handler-fixture';

/**
 * From an image failing to the messages made: the tracker's notices (what the API and the worker queue as
 * `webhook-event` jobs) and the handler that turns one into a message per endpoint that takes it.
 */
let fixture: HandlerFixture;
const context = { logger: createLogger('worker-test', process.env.LOG_LEVEL!), finalAttempt: false };
const PNG = { name: 'a.png', bytes: Buffer.from('not really a png, never decoded here') };

beforeAll(async () => {
  fixture = await createHandlerFixture('webhook-event');
});
afterAll(() => fixture?.close());

function handlerQueueing() {
  const queued: { endpointId: string; messageId: string }[] = [];
  const handler = webhookEventHandler({
    webhooks: fixture.repositories.webhooks,
    batches: fixture.repositories.batches,
    images: fixture.repositories.images,
    queueDelivery: async (delivery) => queued.push(delivery),
  });
  return { handler, queued };
}

describe('webhook events', () => {
  it('are told by the tracker when an image fails and when that fails its batch, once each', async () => {
    const notices: TrackerNotice[] = [];
    const tracker = createBatchTracker({
      batches: fixture.repositories.batches,
      images: fixture.repositories.images,
      publish: async () => undefined,
      onPublishError: (error) => {
        throw error;
      },
      notify: async (notice) => notices.push(notice),
    });
    const { batch, images } = await fixture.uploadBatch([PNG]);
    const image = images[0]!;
    await fixture.repositories.images.update(image.id, { status: 'failed', error: 'analysis failed' });
    await tracker.imagesChanged(batch.id, [{ id: image.id, batchId: batch.id, status: 'failed', error: 'x' }]);
    expect(notices.map(({ type, batchId, imageId }) => ({ type, batchId, imageId }))).toEqual([
      { type: 'image.failed', batchId: batch.id, imageId: image.id },
      { type: 'batch.failed', batchId: batch.id, imageId: undefined },
    ]);
    // The batch is already failed: refreshing it again is no news.
    await tracker.refreshBatch(batch.id);
    expect(notices).toHaveLength(2);
  });

  it('become one message per endpoint of the owner that takes the event, with the batch status as data', async () => {
    const { user, batch, images } = await fixture.uploadBatch([PNG]);
    const webhooks = fixture.repositories.webhooks;
    const make = (events: string[]) =>
      webhooks.createWithin(
        { userId: user.id, url: 'https://hooks.example.com/', events, secret: generateWebhookSecret() },
        10,
      );
    const taker = (await make(['batch.failed', 'image.failed']))!;
    const other = (await make(['batch.completed']))!;
    const stranger = await fixture.uploadBatch([PNG]);
    await webhooks.createWithin(
      {
        userId: stranger.user.id,
        url: 'https://hooks.example.com/',
        events: ['batch.failed'],
        secret: generateWebhookSecret(),
      },
      10,
    );
    await fixture.repositories.images.update(images[0]!.id, { status: 'failed', error: 'analysis failed' });
    await fixture.tracker.refreshBatch(batch.id);

    const { handler, queued } = handlerQueueing();
    expect(await handler.handle({ type: 'batch.failed', batchId: batch.id, at: Date.now() }, context)).toEqual({
      messages: 1,
    });
    expect(queued.map((delivery) => delivery.endpointId)).toEqual([taker.id]);
    const [attempt] = await webhooks.attemptsOf(taker.id, queued[0]!.messageId);
    expect(attempt).toMatchObject({ attempt: 1, status: 'pending', event: 'batch.failed' });
    expect(attempt!.payload).toMatchObject({
      type: 'batch.failed',
      data: { batchId: batch.id, status: 'failed', total: 1 },
    });
    expect((await webhooks.listDeliveries(other.id)).items).toEqual([]);

    await handler.handle({ type: 'image.failed', batchId: batch.id, imageId: images[0]!.id, at: 1 }, context);
    const imageMessage = queued.at(-1)!;
    const [imageAttempt] = await webhooks.attemptsOf(taker.id, imageMessage.messageId);
    expect(imageAttempt!.payload).toMatchObject({
      type: 'image.failed',
      data: { image: { id: images[0]!.id, originalFilename: 'a.png', error: 'analysis failed' } },
    });
  });

  it('handled twice (the job retried after a later endpoint failed to queue) make each endpoint’s message once, with one id', async () => {
    const { user, batch, images } = await fixture.uploadBatch([PNG]);
    const endpoint = (await fixture.repositories.webhooks.createWithin(
      { userId: user.id, url: 'https://hooks.example.com/', events: ['batch.failed'], secret: generateWebhookSecret() },
      10,
    ))!;
    await fixture.repositories.images.update(images[0]!.id, { status: 'failed', error: 'analysis failed' });
    await fixture.tracker.refreshBatch(batch.id);
    const { handler, queued } = handlerQueueing();
    const event = { type: 'batch.failed' as const, batchId: batch.id, at: 7 };
    await handler.handle(event, context);
    await handler.handle(event, context);
    expect(new Set(queued.map((delivery) => delivery.messageId)).size).toBe(1);
    expect((await fixture.repositories.webhooks.listDeliveries(endpoint.id)).items).toHaveLength(1);
  });

  it('about an image retried since it failed make no message', async () => {
    const { user, batch, images } = await fixture.uploadBatch([PNG]);
    await fixture.repositories.webhooks.createWithin(
      { userId: user.id, url: 'https://hooks.example.com/', events: ['image.failed'], secret: generateWebhookSecret() },
      10,
    );
    const { handler, queued } = handlerQueueing();
    const result = await handler.handle(
      { type: 'image.failed', batchId: batch.id, imageId: images[0]!.id, at: 2 },
      context,
    );
    expect(result).toEqual({ messages: 0 });
    expect(queued).toEqual([]);
  });
});
