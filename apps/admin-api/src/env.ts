import { billingEnv } from '@renamer/billing';
import { maintenanceEnv } from '@renamer/maintenance';
import { parseEnv, portVariable, serviceEnvSchema } from '@renamer/service-kit';
import { z } from 'zod';

export const adminEnvSchema = serviceEnvSchema({
  ADMIN_API_PORT: portVariable(3001),
  TRUST_PROXY: z.stringbool().default(false),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  // Refunds go through Stripe with the API's keys.
  ...billingEnv,
  ...maintenanceEnv,
});

export type AdminEnv = z.infer<typeof adminEnvSchema>;

export const loadAdminEnv = (source: NodeJS.ProcessEnv = process.env): AdminEnv => parseEnv(adminEnvSchema, source);
