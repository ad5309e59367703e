import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { webhookEvents } from '../schema';

export type WebhookEvent = typeof webhookEvents.$inferSelect;

export function createWebhookEventRepository(db: Database) {
  return {
    /**
     * Records the event id; false when it was recorded before, so the caller skips it.
     * Call it in the transaction that acts on the event: if acting fails, the record rolls back
     * with it and Stripe's redelivery is processed.
     */
    async recordOnce(eventId: string, type: string, tx?: Executor): Promise<boolean> {
      const inserted = await (tx ?? db)
        .insert(webhookEvents)
        .values({ id: eventId, type })
        .onConflictDoNothing({ target: webhookEvents.id })
        .returning({ id: webhookEvents.id });
      return inserted.length > 0;
    },

    async markProcessed(eventId: string, now: Date, tx?: Executor): Promise<void> {
      await (tx ?? db).update(webhookEvents).set({ processedAt: now }).where(eq(webhookEvents.id, eventId));
    },

    async findById(eventId: string, tx?: Executor): Promise<WebhookEvent | null> {
      const [row] = await (tx ?? db).select().from(webhookEvents).where(eq(webhookEvents.id, eventId));
      return row ?? null;
    },
  };
}

export type WebhookEventRepository = ReturnType<typeof createWebhookEventRepository>;
