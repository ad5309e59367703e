import type { Plan } from '@renamer/contracts';
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { subscriptions } from '../schema';

export type Subscription = typeof subscriptions.$inferSelect;

export interface SubscriptionState {
  userId: string;
  stripeSubscriptionId: string;
  plan: Plan;
  /** Stripe's status, verbatim. */
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** When Stripe's state was this (the event's or the read's `created` time). */
  stripeStateAt: Date;
}

export function createSubscriptionRepository(db: Database) {
  return {
    /** Creates or replaces the user's one subscription (webhooks deliver the whole state). */
    async upsertForUser(state: SubscriptionState, tx?: Executor): Promise<Subscription> {
      const { userId, ...rest } = state;
      const [row] = await (tx ?? db)
        .insert(subscriptions)
        .values(state)
        .onConflictDoUpdate({ target: subscriptions.userId, set: rest })
        .returning();
      return row!;
    },

    async findByUserId(userId: string, tx?: Executor): Promise<Subscription | null> {
      const [row] = await (tx ?? db).select().from(subscriptions).where(eq(subscriptions.userId, userId));
      return row ?? null;
    },

    async findByStripeSubscriptionId(stripeSubscriptionId: string, tx?: Executor): Promise<Subscription | null> {
      const [row] = await (tx ?? db)
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.stripeSubscriptionId, stripeSubscriptionId));
      return row ?? null;
    },

    async deleteForUser(userId: string, tx?: Executor): Promise<boolean> {
      const deleted = await (tx ?? db)
        .delete(subscriptions)
        .where(eq(subscriptions.userId, userId))
        .returning({ id: subscriptions.id });
      return deleted.length > 0;
    },
  };
}

export type SubscriptionRepository = ReturnType<typeof createSubscriptionRepository>;
