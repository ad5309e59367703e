import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createWebhookEventRepository } from '../src';
import { connectTestDb } from './support/database';

const client = connectTestDb(10);
const events = createWebhookEventRepository(client.db);

afterAll(() => client.close());

describe('webhook event repository', () => {
  it('records an event once however often it is delivered', async () => {
    const eventId = `evt_${randomUUID()}`;
    expect(await events.recordOnce(eventId, 'invoice.paid')).toBe(true);
    expect(await events.recordOnce(eventId, 'invoice.paid')).toBe(false);
    expect(await events.findById(eventId)).toMatchObject({ id: eventId, type: 'invoice.paid', processedAt: null });
  });

  it('lets exactly one of concurrent deliveries through', async () => {
    const eventId = `evt_${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 8 }, () => events.recordOnce(eventId, 'charge.refunded')));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('forgets the event when the transaction acting on it fails', async () => {
    const eventId = `evt_${randomUUID()}`;
    await expect(
      client.db.transaction(async (tx) => {
        expect(await events.recordOnce(eventId, 'customer.subscription.updated', tx)).toBe(true);
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    expect(await events.recordOnce(eventId, 'customer.subscription.updated')).toBe(true);
  });

  it('marks an event processed', async () => {
    const eventId = `evt_${randomUUID()}`;
    await events.recordOnce(eventId, 'invoice.paid');
    const now = new Date('2031-01-01T00:00:00.000Z');
    await events.markProcessed(eventId, now);
    expect((await events.findById(eventId))?.processedAt).toEqual(now);
  });
});
