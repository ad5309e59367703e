import { parseEnv, portVariable, serviceEnvSchema } from '@renamer/service-kit';
import { z } from 'zod';

export const apiEnvSchema = serviceEnvSchema({
  API_PORT: portVariable(3000),
  TRUST_PROXY: z.stringbool().default(false),
});

export type ApiEnv = z.infer<typeof apiEnvSchema>;

export const loadApiEnv = (source: NodeJS.ProcessEnv = process.env): ApiEnv => parseEnv(apiEnvSchema, source);
