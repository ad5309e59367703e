import { PLANS, type Plan } from '@renamer/contracts';
import { type AnyColumn, and, count, desc, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { batches, filenameHistory, images, payments, uploadRejections, users } from '../schema';
import { utcDays } from './utc-days';

export interface AnalyticsRange {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
}

export interface CurrencyAmount {
  currency: string;
  /** Net of refunds, in the currency's minor unit. */
  amount: number;
}

export interface RejectionCount {
  code: string;
  count: number;
}

/** The vision model's share of the analysis, from the `llm` and `instructions` records in `images.analysis_steps`. */
export interface VisionModelUse {
  calls: number;
  tokens: { prompt: number; completion: number };
  /** Failed or timed out. */
  failures: number;
  timedOut: number;
  /** Analysed images without an answered `llm` record: named by the local analyser alone. */
  fallbacks: number;
  /** Images with a skipped `instructions` record. */
  instructionsUnused: number;
}

export interface AnalyticsSummary {
  users: { total: number; new: number; byPlan: Record<Plan, number> };
  batches: number;
  images: {
    uploaded: number;
    processed: number;
    failed: number;
    /** From upload to the analyser's first proposal, over the images of the range that have one; null for none. */
    averageProcessingSeconds: number | null;
  };
  visionModel: VisionModelUse;
  revenue: CurrencyAmount[];
  /** Files refused at upload by problem code, most frequent first. */
  rejections: RejectionCount[];
}

export interface DailyActivity {
  /** UTC day, YYYY-MM-DD. */
  date: string;
  newUsers: number;
  batches: number;
  images: number;
  failedImages: number;
  rejectedFiles: number;
}

export interface DailyRevenue extends CurrencyAmount {
  date: string;
}

const PAID_STATUSES = ['succeeded', 'partially_refunded', 'refunded'] as const;

function createdWithin(column: AnyColumn, range: AnalyticsRange) {
  return and(gte(column, range.from), lt(column, range.to));
}

/** The UTC days a range touches, as `date` values: rejections are counted per day. */
function daysOf(range: AnalyticsRange) {
  const first = range.from.toISOString().slice(0, 10);
  const last = new Date(range.to.getTime() - 1).toISOString().slice(0, 10);
  return and(gte(uploadRejections.day, first), lte(uploadRejections.day, last));
}

/**
 * Summed in SQL over the jsonb step records of the images uploaded in the range (each analysed image keeps
 * the records of its last analysis; one `llm` record per call).
 */
async function visionModelUse(q: Database | Executor, range: AnalyticsRange): Promise<VisionModelUse> {
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const inRange = sql`${images.createdAt} >= ${from}::timestamptz and ${images.createdAt} < ${to}::timestamptz`;
  const [row] = await q.execute<{
    calls: number;
    promptTokens: number;
    completionTokens: number;
    failures: number;
    timedOut: number;
    instructionsUnused: number;
    fallbacks: number;
  }>(sql`
    with records as (
      select record
      from ${images} cross join lateral jsonb_array_elements(${images.analysisSteps}) as steps(record)
      where ${inRange}
    )
    select
      count(*) filter (where record ->> 'step' = 'llm')::integer as "calls",
      coalesce(sum((record -> 'tokens' ->> 'prompt')::bigint) filter (where record ->> 'step' = 'llm'), 0)::float8
        as "promptTokens",
      coalesce(sum((record -> 'tokens' ->> 'completion')::bigint) filter (where record ->> 'step' = 'llm'), 0)::float8
        as "completionTokens",
      count(*) filter (where record ->> 'step' = 'llm' and record ->> 'outcome' in ('failed', 'timed-out'))::integer
        as "failures",
      count(*) filter (where record ->> 'step' = 'llm' and record ->> 'outcome' = 'timed-out')::integer as "timedOut",
      count(*) filter (where record ->> 'step' = 'instructions' and record ->> 'outcome' = 'skipped')::integer
        as "instructionsUnused",
      (
        select count(*)::integer from ${images}
        where ${inRange}
          and jsonb_array_length(${images.analysisSteps}) > 0
          and not ${images.analysisSteps} @> '[{"step": "llm", "outcome": "ok"}]'::jsonb
      ) as "fallbacks"
    from records
  `);
  return {
    calls: row?.calls ?? 0,
    tokens: { prompt: row?.promptTokens ?? 0, completion: row?.completionTokens ?? 0 },
    failures: row?.failures ?? 0,
    timedOut: row?.timedOut ?? 0,
    fallbacks: row?.fallbacks ?? 0,
    instructionsUnused: row?.instructionsUnused ?? 0,
  };
}

export function createAnalyticsRepository(db: Database) {
  return {
    async summary(range: AnalyticsRange, tx?: Executor): Promise<AnalyticsSummary> {
      const q = tx ?? db;
      const firstProposal = q
        .select({ at: sql<Date>`min(${filenameHistory.createdAt})`.as('at') })
        .from(filenameHistory)
        .where(and(sql`${filenameHistory.imageId} = ${images.id}`, sql`${filenameHistory.source} = 'proposal'`))
        .as('first_proposal');
      const [userCounts, planCounts, [batchCount], [imageCounts], [timing], revenue, rejections, visionModel] =
        await Promise.all([
          q
            .select({
              total: count(),
              new: sql<number>`(count(*) filter (where ${users.createdAt} >= ${range.from.toISOString()}::timestamptz))::integer`,
            })
            .from(users)
            .where(lt(users.createdAt, range.to)),
          q.select({ plan: users.plan, count: count() }).from(users).groupBy(users.plan),
          q.select({ count: count() }).from(batches).where(createdWithin(batches.createdAt, range)),
          q
            .select({
              uploaded: count(),
              processed: sql<number>`(count(*) filter (where ${images.status} in ('ready', 'approved')))::integer`,
              failed: sql<number>`(count(*) filter (where ${images.status} = 'failed'))::integer`,
            })
            .from(images)
            .where(createdWithin(images.createdAt, range)),
          q
            .select({
              seconds: sql<number | null>`avg(extract(epoch from ${firstProposal.at} - ${images.createdAt}))::float8`,
            })
            .from(images)
            .innerJoinLateral(firstProposal, sql`${firstProposal.at} is not null`)
            .where(createdWithin(images.createdAt, range)),
          q
            .select({
              currency: payments.currency,
              amount: sql<number>`(sum(${payments.amount} - ${payments.refundedAmount}))::float8`,
            })
            .from(payments)
            .where(and(createdWithin(payments.createdAt, range), inArray(payments.status, PAID_STATUSES)))
            .groupBy(payments.currency)
            .orderBy(payments.currency),
          q
            .select({ code: uploadRejections.code, count: sql<number>`sum(${uploadRejections.count})::integer` })
            .from(uploadRejections)
            .where(daysOf(range))
            .groupBy(uploadRejections.code)
            .orderBy(desc(sql`sum(${uploadRejections.count})`), uploadRejections.code),
          visionModelUse(q, range),
        ]);
      const byPlan = Object.fromEntries(PLANS.map((plan) => [plan, 0])) as Record<Plan, number>;
      for (const row of planCounts) byPlan[row.plan] = row.count;
      return {
        users: { total: userCounts[0]?.total ?? 0, new: userCounts[0]?.new ?? 0, byPlan },
        batches: batchCount?.count ?? 0,
        images: {
          uploaded: imageCounts?.uploaded ?? 0,
          processed: imageCounts?.processed ?? 0,
          failed: imageCounts?.failed ?? 0,
          averageProcessingSeconds: timing?.seconds ?? null,
        },
        visionModel,
        revenue,
        rejections,
      };
    },

    /** The vision model's calls, tokens, failures and fall-backs over the images uploaded in the range. */
    visionModelUse: (range: AnalyticsRange, tx?: Executor) => visionModelUse(tx ?? db, range),

    /** One row per UTC day of the range, zeros included. */
    async dailyActivity(range: AnalyticsRange, tx?: Executor): Promise<DailyActivity[]> {
      const from = range.from.toISOString();
      const to = range.to.toISOString();
      const rows = await (tx ?? db).execute<{
        date: string;
        newUsers: number;
        batches: number;
        images: number;
        failedImages: number;
        rejectedFiles: number;
      }>(sql`
        ${utcDays(from, to)},
        new_users as (
          select date_trunc('day', ${users.createdAt} at time zone 'UTC') as day, count(*) as n
          from ${users} where ${users.createdAt} >= ${from}::timestamptz and ${users.createdAt} < ${to}::timestamptz
          group by 1
        ),
        new_batches as (
          select date_trunc('day', ${batches.createdAt} at time zone 'UTC') as day, count(*) as n
          from ${batches} where ${batches.createdAt} >= ${from}::timestamptz and ${batches.createdAt} < ${to}::timestamptz
          group by 1
        ),
        new_images as (
          select date_trunc('day', ${images.createdAt} at time zone 'UTC') as day, count(*) as n,
                 count(*) filter (where ${images.status} = 'failed') as failed
          from ${images} where ${images.createdAt} >= ${from}::timestamptz and ${images.createdAt} < ${to}::timestamptz
          group by 1
        ),
        rejected as (
          select ${uploadRejections.day}::timestamp as day, sum(${uploadRejections.count}) as n
          from ${uploadRejections}
          where ${uploadRejections.day} >= (${from}::timestamptz at time zone 'UTC')::date
            and ${uploadRejections.day} <= ((${to}::timestamptz - interval '1 millisecond') at time zone 'UTC')::date
          group by 1
        )
        select to_char(days.day, 'YYYY-MM-DD') as "date",
               coalesce(new_users.n, 0)::integer as "newUsers",
               coalesce(new_batches.n, 0)::integer as "batches",
               coalesce(new_images.n, 0)::integer as "images",
               coalesce(new_images.failed, 0)::integer as "failedImages",
               coalesce(rejected.n, 0)::integer as "rejectedFiles"
        from days
        left join new_users on new_users.day = days.day
        left join new_batches on new_batches.day = days.day
        left join new_images on new_images.day = days.day
        left join rejected on rejected.day = days.day
        order by days.day
      `);
      return [...rows];
    },

    /** Net revenue per UTC day and currency; days without payments are absent. */
    async dailyRevenue(range: AnalyticsRange, tx?: Executor): Promise<DailyRevenue[]> {
      const day = sql<string>`to_char(${payments.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
      return (tx ?? db)
        .select({
          date: day,
          currency: payments.currency,
          amount: sql<number>`(sum(${payments.amount} - ${payments.refundedAmount}))::float8`,
        })
        .from(payments)
        .where(and(createdWithin(payments.createdAt, range), inArray(payments.status, PAID_STATUSES)))
        .groupBy(day, payments.currency)
        .orderBy(day, payments.currency);
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
