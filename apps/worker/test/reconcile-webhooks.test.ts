import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb, createUserRepository, createWebhookRepository } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import { bullPrefix, closeQueues, createQueues, queueWebhookDelivery, requeueWebhookDelivery } from '@renamer/jobs';
import { createLogger } from '@renamer/runtime';
import { createIsolatedDatabase } from '@renamer/runtime/testing';
import { generateWebhookSecret, messageBody, newMessageId } from '@renamer/webhooks';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhookHandler, reconcileWebhooksHandler } from '../src/handlers/webhooks';

/**
 * The webhook reconciler over a database of the file's own (it acts on every stalled attempt it finds), real
 * queues under a Redis prefix of its own, and a receiver on 127.0.0.1 that takes every message.
 */
const redisPrefix = `${process.env.REDIS_PREFIX}reconcile-webhooks-${randomUUID().slice(0, 8)}:`;
const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
const queues = createQueues(connection, redisPrefix);
const context = { logger: createLogger('worker-test', process.env.LOG_LEVEL!), finalAttempt: true };
const MINUTE = 60_000;

let database: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let client: ReturnType<typeof createDb>;
let webhooks: ReturnType<typeof createWebhookRepository>;
let receiver: Server;
let url = '';
const received: string[] = [];

beforeAll(async () => {
  database = await createIsolatedDatabase(process.env.DATABASE_URL!);
  client = createDb(database.url, { max: 2 });
  webhooks = createWebhookRepository(client.db);
  receiver = createServer((request, response) => {
    received.push(String(request.headers['webhook-id']));
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await closeQueues(queues);
  const keys = await connection.keys(`${redisPrefix}*`);
  if (keys.length) await connection.del(...keys);
  connection.disconnect();
  await client?.close();
  await database?.drop();
});

/** A message whose first attempt is recorded; `failed` with `nextAttemptAt` as a failed attempt leaves it. */
async function message(outcome?: { status: 'delivered' | 'failed'; nextAttemptAt: Date | null }) {
  const subject = randomUUID();
  const user = await createUserRepository(client.db).create({
    provider: 'test',
    providerSubject: subject,
    displayName: 'Hooked',
    emailHash: emailHash(`${subject}@hooks.test`),
  });
  const endpoint = (await webhooks.createWithin(
    { userId: user.id, url, events: ['batch.completed'], secret: generateWebhookSecret() },
    10,
  ))!;
  const messageId = newMessageId();
  const row = await webhooks.insertDelivery({
    endpointId: endpoint.id,
    messageId,
    event: 'batch.completed',
    payload: messageBody('batch.completed', { batchId: randomUUID() }, new Date()),
    attempt: 1,
  });
  if (outcome) {
    await webhooks.finishDelivery(row.id, {
      ...outcome,
      responseStatus: outcome.status === 'failed' ? 503 : 204,
      error: outcome.status === 'failed' ? 'answered 503' : null,
    });
  }
  return { endpointId: endpoint.id, messageId };
}

const reconcileAt = (now: Date) =>
  reconcileWebhooksHandler({
    webhooks,
    requeue: (delivery, attempt) => requeueWebhookDelivery(queues, delivery, attempt),
    now: () => now,
  });

const queuedAttempt = async ({ endpointId, messageId }: { endpointId: string; messageId: string }, attempt: number) =>
  queues.webhooks.getJob(`deliver-webhook-${endpointId}-${messageId}-${attempt}`);

describe('reconcile-webhooks', () => {
  it('queues the attempts that fell due and never ran, and nothing else', async () => {
    const started = Date.now();
    // The retry of a failed attempt was due 5 minutes ago, and its queueing failed.
    const lostRetry = await message({ status: 'failed', nextAttemptAt: new Date(started - 5 * MINUTE) });
    const delivered = await message({ status: 'delivered', nextAttemptAt: null });
    const givenUp = await message({ status: 'failed', nextAttemptAt: null });
    const notYetDue = await message({ status: 'failed', nextAttemptAt: new Date(started + 10 * MINUTE) });
    const tooOld = await message({ status: 'failed', nextAttemptAt: new Date(started - 25 * 60 * MINUTE) });
    const disabled = await message({ status: 'failed', nextAttemptAt: new Date(started - 5 * MINUTE) });
    await webhooks.recordFailedMessage(disabled.endpointId, 1, 'failing for a day', new Date());

    const result = await reconcileAt(new Date(started)).handle({ olderThanSeconds: 60 }, context);
    expect(result).toEqual({ stalled: 1, requeued: 1 });
    const job = await queuedAttempt(lostRetry, 2);
    expect(job?.data).toMatchObject({ ...lostRetry, attempt: 2 });
    expect(await job?.getState()).toBe('waiting');
    for (const other of [delivered, givenUp, notYetDue, tooOld, disabled]) {
      expect(await queuedAttempt(other, 2)).toBeUndefined();
    }

    // Its job is still waiting: a second run queues nothing more.
    expect(await reconcileAt(new Date(started)).handle({ olderThanSeconds: 60 }, context)).toEqual({
      stalled: 1,
      requeued: 0,
    });
    await job!.remove();
  });

  it('runs again an attempt left pending, whose job failed, and the message then arrives under its own id', async () => {
    const stuck = await message();
    // Its job ran and failed before the attempt was recorded (the database went away mid-attempt).
    await queueWebhookDelivery(queues, { ...stuck, firstAttemptAt: new Date() });
    const taker = new Worker('webhooks', null, { connection, prefix: bullPrefix(redisPrefix) });
    const taken = await taker.getNextJob('test-token');
    await taken!.moveToFailed(new Error('database went away'), 'test-token');
    await taker.close();
    expect(await (await queuedAttempt(stuck, 1))?.getState()).toBe('failed');
    const later = new Date(Date.now() + 5 * MINUTE);
    // Not yet older than the setting: left alone.
    await reconcileAt(new Date()).handle({ olderThanSeconds: 60 }, context);
    expect(await (await queuedAttempt(stuck, 1))?.getState()).toBe('failed');

    await reconcileAt(later).handle({ olderThanSeconds: 60 }, context);
    const job = await queuedAttempt(stuck, 1);
    expect(await job?.getState()).toBe('waiting');
    expect(job?.data).toMatchObject({ ...stuck, attempt: 1 });

    const deliver = deliverWebhookHandler({
      webhooks,
      allowInsecure: true,
      retryBaseMs: 15_000,
      queueRetry: async () => undefined,
    });
    await deliver.handle(job!.data, context);
    expect(received).toContain(stuck.messageId);
    expect(await webhooks.attemptsOf(stuck.endpointId, stuck.messageId)).toMatchObject([
      { attempt: 1, status: 'delivered', responseStatus: 204 },
    ]);
    // Delivered: nothing left to reconcile for it.
    await job!.remove();
    await reconcileAt(later).handle({ olderThanSeconds: 60 }, context);
    expect(await queuedAttempt(stuck, 1)).toBeUndefined();
  });
});
