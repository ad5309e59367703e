import { billingEnv } from '@renamer/billing';
import { cleanupEnv } from '@renamer/jobs';
import { parseEnv, portVariable, serviceEnvSchema } from '@renamer/runtime';
import { z } from 'zod';

export const adminEnvSchema = serviceEnvSchema({
  ADMIN_API_PORT: portVariable(3001),
  TRUST_PROXY: z.stringbool().default(false),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  // Refunds go through Stripe with the API's keys.
  ...billingEnv,
  ...cleanupEnv,
  /**
   * The other services' Prometheus endpoints, summarised by GET /api/admin/metrics: `name=url` pairs separated by
   * commas. The default is where `npm start` runs them.
   */
  METRICS_TARGETS: z
    .string()
    .default('api=http://127.0.0.1:3000/metrics,worker=http://127.0.0.1:3003/metrics')
    .transform((value, context) => {
      const targets = new Map<string, string>();
      for (const pair of value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)) {
        const [name, url] = pair.split('=', 2) as [string, string | undefined];
        if (!name || !url || !URL.canParse(url)) {
          context.addIssue({ code: 'custom', message: `"${pair}" is not name=url` });
          continue;
        }
        targets.set(name, url);
      }
      return targets;
    }),
});

export type AdminEnv = z.infer<typeof adminEnvSchema>;

export const loadAdminEnv = (source: NodeJS.ProcessEnv = process.env): AdminEnv => parseEnv(adminEnvSchema, source);
