import { z } from 'zod';
import { PLANS } from './enums';

const count = z.number().int().min(0);
const CurrencyAmount = z.object({
  currency: z.string().describe('ISO 4217, lowercase as Stripe writes it.'),
  amount: z.number().int().describe('Net of refunds, in the currency’s minor unit.'),
});

/** At most this many days per request: a year and a day. */
export const MAX_ANALYTICS_DAYS = 366;

export const AnalyticsQuery = z
  .object({
    from: z.iso
      .datetime({ offset: true })
      .or(z.iso.date())
      .optional()
      .describe('Inclusive; a date means its 00:00 UTC. Default: 30 days before `to`.'),
    to: z.iso
      .datetime({ offset: true })
      .or(z.iso.date())
      .optional()
      .describe('Exclusive; a date means its 00:00 UTC. Default: the start of tomorrow (UTC).'),
  })
  .transform(({ from, to }, context) => {
    const end = to ? new Date(to) : startOfTomorrow();
    const start = from ? new Date(from) : new Date(end.getTime() - 30 * DAY_MS);
    if (start >= end) context.addIssue({ code: 'custom', path: ['from'], message: 'must be before `to`' });
    if (end.getTime() - start.getTime() > MAX_ANALYTICS_DAYS * DAY_MS) {
      context.addIssue({ code: 'custom', path: ['from'], message: `at most ${MAX_ANALYTICS_DAYS} days before \`to\`` });
    }
    return { from: start, to: end };
  });

const DAY_MS = 24 * 3600 * 1000;
function startOfTomorrow() {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

export const AnalyticsResponse = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  users: z.object({
    total: count.describe('Accounts that existed at `to`.'),
    new: count,
    byPlan: z.object(
      Object.fromEntries(PLANS.map((plan) => [plan, count])) as Record<(typeof PLANS)[number], typeof count>,
    ),
  }),
  batches: count,
  images: z.object({
    uploaded: count,
    processed: count.describe('Of the uploaded: ready or approved now.'),
    failed: count,
    averageProcessingSeconds: z
      .number()
      .nullable()
      .describe('From upload to the analyser’s proposal, over the uploaded images that have one.'),
  }),
  visionModel: z
    .object({
      calls: count.describe(
        'Images whose analysis asked the vision model (one call each; the SDK’s retries not counted).',
      ),
      tokens: z
        .object({ prompt: count, completion: count })
        .describe('Summed as each call’s server reported them (its `usage`), answers that did not fit included.'),
      failures: count.describe('Calls that failed (an error, or an answer that did not fit) or timed out.'),
      timedOut: count.describe('Of the failures, those that ran out of time.'),
      fallbacks: count.describe(
        'Analysed images the local analyser named alone: the model failed, timed out, was switched off or is not configured.',
      ),
      instructionsUnused: count.describe('Images whose batch had instructions that no vision model read.'),
    })
    .describe('The vision model over the images uploaded in the range, from each image’s analysis steps.'),
  revenue: z.array(CurrencyAmount),
  downloads: z
    .object({
      total: count.describe('Download links and archives asked for in the range.'),
      bytes: count.describe(
        'The bytes they sent (a plain original the object store hands out directly is not counted).',
      ),
      byDay: z
        .array(z.object({ day: z.iso.date(), count, bytes: count }))
        .describe('Each UTC day of the range, zeros included.'),
    })
    .describe('Downloads asked for in the range (by when each was asked for) and the bytes they sent.'),
  rejections: z
    .array(z.object({ code: z.string(), count }))
    .describe('Files refused at upload by problem code, most frequent first (whole UTC days).'),
  daily: z.array(
    z.object({
      date: z.iso.date(),
      newUsers: count,
      batches: count,
      images: count,
      failedImages: count,
      rejectedFiles: count,
      revenue: z.array(CurrencyAmount),
    }),
  ),
});
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>;
