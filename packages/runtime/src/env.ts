import { z } from 'zod';

/** Raised at boot when the environment does not parse; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function parseEnv<S extends z.ZodType>(schema: S, source: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(source);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? '(environment)'),
      message: issue.path.length > 1 ? `item ${issue.path.slice(1).join('.')}: ${issue.message}` : issue.message,
    })),
  );
}

export const portVariable = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const url = (protocols: string[]) => z.url({ protocol: new RegExp(`^(${protocols.join('|')})$`) });

export const NodeEnv = z.enum(['development', 'test', 'production']).default('development');
export const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** Variables every service reads. */
export const commonEnv = {
  NODE_ENV: NodeEnv,
  LOG_LEVEL: LogLevel,
  DATABASE_URL: url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/renamer'),
  /**
   * Connections each process keeps. Queries beyond them are pipelined on open connections, and fewer
   * connections carry more queries per write (docs/benchmarks.md: the pool-size sweep).
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(4),
  REDIS_URL: url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:-]+:$/, 'letters, digits, _, - or : ending with ":"')
    .default('renamer:'),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Warnings and errors also go to a capped Redis stream, for operators (GET /api/admin/logs). */
  LOG_SHIPPING: z.stringbool().default(true),
  LOG_STREAM_MAX_ENTRIES: z.coerce.number().int().min(100).default(10_000),
  LOG_STREAM_RETENTION_HOURS: z.coerce.number().min(1).default(24),
  /** Unexpected errors go to Sentry (or a compatible service) when set; tracing reads the OTEL_* variables. */
  SENTRY_DSN: z.preprocess((value) => (value === '' ? undefined : value), url(['http', 'https']).optional()),
  /**
   * Webhooks may go to http URLs and loopback addresses (development and tests); never to private, link-local
   * or other reserved ranges. Every service reads it: the API checks URLs, the worker delivers.
   */
  WEBHOOKS_ALLOW_INSECURE: z.stringbool().default(false),
};

const DEV_SECRET = 'renamer-development-secret-change-me-in-production';

/** Object storage and the secrets that sign its links. */
export const storageEnv = {
  STORAGE_DRIVER: z.enum(['fs', 's3']).default('fs'),
  STORAGE_DIR: z.string().min(1).default('.data/objects'),
  S3_ENDPOINT: url(['http', 'https']).optional(),
  /** Where browsers reach the store (presigned links); S3_ENDPOINT when unset. */
  S3_PUBLIC_ENDPOINT: url(['http', 'https']).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_BUCKET: z.string().min(3).default('renamer'),
  PUBLIC_URL: url(['http', 'https']).default('http://localhost:3000'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_SECRET),
};

/** Cross-field rules: S3 needs its credentials; production needs a real secret. */
function refineStorageEnv(env: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (env.STORAGE_DRIVER === 's3') {
    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'required when STORAGE_DRIVER=s3' });
    }
  }
  if (env.NODE_ENV === 'production' && env.SESSION_SECRET === DEV_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'must be set in production' });
  }
}

/** A service's environment schema: the common and storage variables plus its own. */
export function serviceEnvSchema<Extra extends z.ZodRawShape>(extra: Extra) {
  return z
    .object({ ...commonEnv, ...storageEnv, ...extra })
    .superRefine((env, ctx) => refineStorageEnv(env as Record<string, unknown>, ctx));
}

const platformEnvSchema = serviceEnvSchema({});
/** The variables every service shares (what `createPlatform` needs). */
export type PlatformEnv = z.infer<typeof platformEnvSchema>;
