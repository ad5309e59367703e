import { and, asc, count, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { keysetPage, type Page, type PageParams } from '../pagination';
import { webhookDeliveries, webhookEndpoints } from '../schema';

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

export interface NewWebhookEndpoint {
  userId: string;
  url: string;
  events: string[];
  description?: string | null;
  secret: string;
}

export interface NewWebhookDelivery {
  endpointId: string;
  messageId: string;
  event: string;
  payload: unknown;
  attempt: number;
}

/** Where a page of `listStalled` ended: the next page starts after this attempt row. */
export interface StalledCursor {
  due: Date;
  id: string;
}

/** An attempt the reconciler may queue again: the one to run, of which message to which endpoint. */
export interface StalledAttempt {
  cursor: StalledCursor;
  endpointId: string;
  messageId: string;
  attempt: number;
  firstAttemptAt: Date;
}

const ownedBy = (id: string, userId: string): SQL =>
  and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId))!;

/** A person's webhook endpoints and the log of every attempt to deliver to them. */
export function createWebhookRepository(db: Database) {
  return {
    /**
     * Creates the endpoint unless the user already holds `max`: the count and the insert run under a lock on
     * the user's endpoints, so two requests at once cannot both make the eleventh. Null when at the limit.
     */
    async createWithin(input: NewWebhookEndpoint, max: number): Promise<WebhookEndpoint | null> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${input.userId}`}))`);
        const [held] = await tx
          .select({ n: count() })
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.userId, input.userId));
        if ((held?.n ?? 0) >= max) return null;
        const [row] = await tx.insert(webhookEndpoints).values(input).returning();
        return row!;
      });
    },

    /** The user's endpoints, oldest first. */
    listForUser(userId: string, tx?: Executor): Promise<WebhookEndpoint[]> {
      return (tx ?? db)
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.userId, userId))
        .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
    },

    async findForUser(id: string, userId: string, tx?: Executor): Promise<WebhookEndpoint | null> {
      const [row] = await (tx ?? db).select().from(webhookEndpoints).where(ownedBy(id, userId));
      return row ?? null;
    },

    async findById(id: string, tx?: Executor): Promise<WebhookEndpoint | null> {
      const [row] = await (tx ?? db).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
      return row ?? null;
    },

    /** Deletes the endpoint (and its log) only if it is the user's; false otherwise. */
    async deleteForUser(id: string, userId: string, tx?: Executor): Promise<boolean> {
      const deleted = await (tx ?? db)
        .delete(webhookEndpoints)
        .where(ownedBy(id, userId))
        .returning({ id: webhookEndpoints.id });
      return deleted.length > 0;
    },

    /** The user's endpoints still enabled that take this event. */
    listSubscribed(userId: string, event: string, tx?: Executor): Promise<WebhookEndpoint[]> {
      return (tx ?? db)
        .select()
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.userId, userId),
            isNull(webhookEndpoints.disabledAt),
            sql`${event} = any(${webhookEndpoints.events})`,
          ),
        );
    },

    /** A message that arrived: the failure streak ends. */
    async recordSuccess(id: string, tx?: Executor): Promise<void> {
      await (tx ?? db).update(webhookEndpoints).set({ consecutiveFailures: 0 }).where(eq(webhookEndpoints.id, id));
    },

    /** A message that failed for good: one more in the streak; disabled with the reason once it reaches `disableAt`. */
    async recordFailedMessage(id: string, disableAt: number, reason: string, now: Date, tx?: Executor) {
      const [row] = await (tx ?? db)
        .update(webhookEndpoints)
        .set({
          consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
          disabledAt: sql`case when ${webhookEndpoints.consecutiveFailures} + 1 >= ${disableAt} then coalesce(${webhookEndpoints.disabledAt}, ${now.toISOString()}::timestamptz) else ${webhookEndpoints.disabledAt} end`,
          disabledReason: sql`case when ${webhookEndpoints.consecutiveFailures} + 1 >= ${disableAt} then coalesce(${webhookEndpoints.disabledReason}, ${reason}) else ${webhookEndpoints.disabledReason} end`,
        })
        .where(eq(webhookEndpoints.id, id))
        .returning();
      return row ?? null;
    },

    async insertDelivery(input: NewWebhookDelivery, tx?: Executor): Promise<WebhookDelivery> {
      const [row] = await (tx ?? db)
        .insert(webhookDeliveries)
        .values({ ...input, status: 'pending' })
        .returning();
      return row!;
    },

    /** Every attempt row of one message to one endpoint, first attempt first. */
    attemptsOf(endpointId: string, messageId: string, tx?: Executor): Promise<WebhookDelivery[]> {
      return (tx ?? db)
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.messageId, messageId)))
        .orderBy(asc(webhookDeliveries.attempt));
    },

    async finishDelivery(
      id: string,
      outcome: {
        status: 'delivered' | 'failed';
        responseStatus: number | null;
        error: string | null;
        nextAttemptAt: Date | null;
      },
      tx?: Executor,
    ): Promise<void> {
      await (tx ?? db).update(webhookDeliveries).set(outcome).where(eq(webhookDeliveries.id, id));
    },

    /**
     * Messages whose next step was due before `cutoff` and never ran: the last attempt failed and its retry was
     * due (its queueing failed), or an attempt still reads `pending` (its job was lost or failed). Only what fell
     * due within the 24 hours before `cutoff` (retries stop after those), and nothing for a disabled endpoint but
     * its test pings. `attempt` is the one to run; a `pending` row is run again as the same attempt. In the order
     * they fell due, a page at a time (`after`: the last one's cursor).
     */
    async listStalled(cutoff: Date, limit: number, after?: StalledCursor, tx?: Executor): Promise<StalledAttempt[]> {
      const due = sql`coalesce(d.next_attempt_at, d.created_at)`;
      const rows = await (tx ?? db).execute<{
        id: string;
        due: string;
        endpoint_id: string;
        message_id: string;
        attempt: number;
        first_attempt_at: string;
      }>(sql`
        select d.id, ${due} as due, d.endpoint_id, d.message_id,
          case when d.status = 'pending' then d.attempt else d.attempt + 1 end as attempt,
          (select min(f.created_at) from webhook_deliveries f
            where f.endpoint_id = d.endpoint_id and f.message_id = d.message_id) as first_attempt_at
        from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id
        where d.status <> 'delivered'
          and ${due} < ${cutoff.toISOString()}::timestamptz
          and ${due} > ${cutoff.toISOString()}::timestamptz - interval '24 hours'
          and (d.status = 'pending' or d.next_attempt_at is not null)
          and (e.disabled_at is null or d.event = 'webhook.test')
          and not exists (select 1 from webhook_deliveries n
            where n.message_id = d.message_id and n.endpoint_id = d.endpoint_id and n.attempt > d.attempt)
          ${after ? sql`and (${due}, d.id) > (${after.due.toISOString()}::timestamptz, ${after.id}::uuid)` : sql``}
        order by ${due}, d.id
        limit ${limit}`);
      return rows.map((row) => ({
        cursor: { due: new Date(row.due), id: row.id },
        endpointId: row.endpoint_id,
        messageId: row.message_id,
        attempt: Number(row.attempt),
        firstAttemptAt: new Date(row.first_attempt_at),
      }));
    },

    /** The endpoint's attempt log, newest first, a page at a time. */
    listDeliveries(endpointId: string, params: PageParams = {}, tx?: Executor): Promise<Page<WebhookDelivery>> {
      return keysetPage(
        (tx ?? db).select().from(webhookDeliveries).$dynamic(),
        webhookDeliveries,
        params,
        'desc',
        eq(webhookDeliveries.endpointId, endpointId),
      );
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
