import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb, createUserRepository, createWebhookRepository } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import { createLogger } from '@renamer/runtime';
import { generateWebhookSecret, messageBody, newMessageId } from '@renamer/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhookHandler } from '../src/handlers/webhooks';

/** The delivery handler over the real database and a receiver on 127.0.0.1; the clock is the test's. */
const client = createDb(process.env.DATABASE_URL!, { max: 2 });
const users = createUserRepository(client.db);
const webhooks = createWebhookRepository(client.db);
const context = { logger: createLogger('worker-test', process.env.LOG_LEVEL!), finalAttempt: true };
let receiver: Server;
let hits = 0;
let url = '';

beforeAll(async () => {
  receiver = createServer((_request, response) => {
    hits += 1;
    response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await client.close();
});

async function endpointWithMessage() {
  const user = await users.create({
    provider: 'test',
    providerSubject: randomUUID(),
    displayName: 'Hooked',
    emailHash: emailHash(`${randomUUID()}@hooks.test`),
  });
  const endpoint = (await webhooks.createWithin(
    { userId: user.id, url, events: ['batch.completed'], secret: generateWebhookSecret() },
    10,
  ))!;
  const messageId = newMessageId();
  await webhooks.insertDelivery({
    endpointId: endpoint.id,
    messageId,
    event: 'batch.completed',
    payload: messageBody('batch.completed', { batchId: randomUUID() }, new Date()),
    attempt: 1,
  });
  return { endpoint, messageId };
}

/** The handler at the default back-off, the retries it would queue recorded (attempt, delay) instead. */
function recordingHandler({ allowInsecure = true } = {}) {
  const retries: { attempt: number; delayMs: number }[] = [];
  const handler = deliverWebhookHandler({
    webhooks,
    allowInsecure,
    retryBaseMs: 15_000,
    queueRetry: async (_delivery, attempt, delayMs) => retries.push({ attempt, delayMs }),
  });
  return { handler, retries };
}

describe('deliver-webhook', () => {
  it('queues the next attempt after a failure, within 30 s by default, with the failure in the log', async () => {
    const { endpoint, messageId } = await endpointWithMessage();
    const { handler, retries } = recordingHandler();
    const before = hits;
    const payload = { endpointId: endpoint.id, messageId, attempt: 1, firstAttemptAt: new Date().toISOString() };
    await handler.handle(payload, context);
    expect(hits).toBe(before + 1);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.attempt).toBe(2);
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(30_000);
    const [row] = await webhooks.attemptsOf(endpoint.id, messageId);
    expect(row).toMatchObject({ attempt: 1, status: 'failed', responseStatus: 503, error: 'answered 503' });
    expect(row!.nextAttemptAt).not.toBeNull();
    expect((await webhooks.findById(endpoint.id))?.disabledAt).toBeNull();
  });

  it('disables the endpoint, with the reason, when a message still fails 24 hours after its first attempt', async () => {
    const { endpoint, messageId } = await endpointWithMessage();
    const { handler, retries } = recordingHandler();
    const firstAttemptAt = new Date(Date.now() - 24 * 3600 * 1000 + 60_000).toISOString();
    await handler.handle({ endpointId: endpoint.id, messageId, attempt: 20, firstAttemptAt }, context);
    expect(retries).toEqual([]);
    const attempts = await webhooks.attemptsOf(endpoint.id, messageId);
    expect(attempts.at(-1)).toMatchObject({ attempt: 20, status: 'failed', nextAttemptAt: null });
    const disabled = await webhooks.findById(endpoint.id);
    expect(disabled?.disabledAt).toBeInstanceOf(Date);
    expect(disabled?.disabledReason).toContain('could not be delivered for 24 hours');
    expect(disabled?.disabledReason).toContain('answered 503');

    // A disabled endpoint is sent nothing more.
    const before = hits;
    const another = newMessageId();
    await webhooks.insertDelivery({
      endpointId: endpoint.id,
      messageId: another,
      event: 'batch.completed',
      payload: {},
      attempt: 1,
    });
    const skipped = await handler.handle(
      { endpointId: endpoint.id, messageId: another, attempt: 1, firstAttemptAt: new Date().toISOString() },
      context,
    );
    expect(skipped).toEqual({ skipped: 'endpoint disabled' });
    expect(hits).toBe(before);
  });

  it('sends nothing to loopback when the worker runs without WEBHOOKS_ALLOW_INSECURE, and logs why', async () => {
    const { endpoint, messageId } = await endpointWithMessage();
    const { handler } = recordingHandler({ allowInsecure: false });
    const before = hits;
    await handler.handle(
      { endpointId: endpoint.id, messageId, attempt: 1, firstAttemptAt: new Date().toISOString() },
      context,
    );
    expect(hits).toBe(before);
    const [row] = await webhooks.attemptsOf(endpoint.id, messageId);
    expect(row).toMatchObject({ status: 'failed', responseStatus: null });
    expect(row!.error).toMatch(/https|never sent/);
  });

  it('never sends a message twice: an attempt run again after its outcome was recorded, or any attempt once one was delivered, sends nothing', async () => {
    const { endpoint, messageId } = await endpointWithMessage();
    const { handler, retries } = recordingHandler();
    const payload = { endpointId: endpoint.id, messageId, attempt: 1, firstAttemptAt: new Date().toISOString() };
    const before = hits;
    await handler.handle(payload, context);
    expect(hits).toBe(before + 1);
    // The same attempt's job again (a copy the reconciler queued while the first was running): nothing sent.
    expect(await handler.handle(payload, context)).toEqual({ skipped: 'attempt already made' });
    expect(hits).toBe(before + 1);
    expect(retries.map((retry) => retry.attempt)).toEqual([2]);

    // Delivered by some attempt: a later attempt's job sends nothing and adds no row.
    const [first] = await webhooks.attemptsOf(endpoint.id, messageId);
    await webhooks.finishDelivery(first!.id, {
      status: 'delivered',
      responseStatus: 204,
      error: null,
      nextAttemptAt: null,
    });
    expect(await handler.handle({ ...payload, attempt: 2 }, context)).toEqual({ delivered: true });
    expect(hits).toBe(before + 1);
    expect(await webhooks.attemptsOf(endpoint.id, messageId)).toHaveLength(1);
  });
});
