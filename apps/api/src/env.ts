import { availableParallelism, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { billingEnv } from '@renamer/billing';
import { retentionEnv } from '@renamer/jobs';
import { llmEnv } from '@renamer/llm';
import { parseEnv, portVariable, serviceEnvSchema } from '@renamer/runtime';
import { z } from 'zod';

const UNITS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** `7d`, `12h`, `30m`, `45s` or plain seconds, as seconds. */
const durationSeconds = (fallback: string) =>
  z
    .string()
    .regex(/^\d+[smhd]?$/, 'a number of seconds, or a number followed by s, m, h or d (e.g. 7d)')
    .default(fallback)
    .transform((value) => {
      const unit = value.at(-1) as keyof typeof UNITS | undefined;
      return unit && unit in UNITS ? Number(value.slice(0, -1)) * UNITS[unit] : Number(value);
    })
    .refine((seconds) => seconds >= 60, 'must be at least one minute');

const emailList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((email) => email.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.email()));

/** Where `vite build` writes the web app, from this file (src/) or its bundle (dist/) alike. */
const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

export const apiEnvSchema = serviceEnvSchema({
  API_PORT: portVariable(3000),
  /** The web app's build, served at `/`; empty: the API serves no web app. */
  WEB_DIST_DIR: z.string().default(WEB_DIST_DIR),
  /** The admin API, reached through `/api/admin/*` on the API's own origin; unset: no such route. */
  ADMIN_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  TRUST_PROXY: z.stringbool().default(false),
  /** Unset: the development provider that `npm start` runs (refused in production). */
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).default('renamer-dev'),
  OIDC_CLIENT_SECRET: z.string().min(1).default('renamer-dev-secret'),
  /** GitHub sign-in: on only when both are set (an OAuth app whose callback is PUBLIC_URL/api/auth/callback). */
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  GITHUB_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://github.com'),
  GITHUB_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.github.com'),
  ADMIN_EMAILS: emailList,
  SESSION_TTL: durationSeconds('7d'),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  PREVIEW_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(3000),
  KEYWORD_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  UPLOAD_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(25 * 1024 * 1024),
  /** Camera RAW files are larger than photos: they get their own limit. */
  UPLOAD_MAX_RAW_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(120 * 1024 * 1024),
  UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(1000).default(100),
  UPLOAD_MAX_PIXELS: z.coerce.number().int().min(1).default(100_000_000),
  UPLOAD_TMP_DIR: z.string().min(1).default(tmpdir()),
  UPLOAD_CHECK_CONCURRENCY: z.coerce.number().int().min(1).default(availableParallelism()),
  HEIC_DECODE_THREADS: z.coerce.number().int().min(1).default(availableParallelism()),
  WS_PING_INTERVAL_MS: z.coerce.number().int().min(100).default(25_000),
  WS_PONG_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  WS_MAX_SOCKETS_PER_USER: z.coerce.number().int().min(1).default(20),
  /** At most one `batch.status` per batch and interval on a socket, the last always sent (0: merges only those published together). */
  WS_STATUS_INTERVAL_MS: z.coerce.number().int().min(0).max(10_000).default(100),
  WS_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url())),
  ...llmEnv,
  ...billingEnv,
  ...retentionEnv,
}).superRefine((env, ctx) => {
  if (env.NODE_ENV === 'production' && !env.OIDC_ISSUER) {
    ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER'], message: 'must be set in production' });
  }
  if (Boolean(env.GITHUB_CLIENT_ID) !== Boolean(env.GITHUB_CLIENT_SECRET)) {
    const missing = env.GITHUB_CLIENT_ID ? 'GITHUB_CLIENT_SECRET' : 'GITHUB_CLIENT_ID';
    ctx.addIssue({
      code: 'custom',
      path: [missing],
      message: 'GitHub sign-in needs both GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET',
    });
  }
});

export const DEV_IDP_ISSUER = 'http://localhost:3002';

export type ApiEnv = z.infer<typeof apiEnvSchema>;

export const loadApiEnv = (source: NodeJS.ProcessEnv = process.env): ApiEnv => parseEnv(apiEnvSchema, source);
