import { z } from 'zod';
import { ModelInstructions, NamingTemplate } from './batches';
import { Plan, Role } from './enums';
import { FreeText, SingleLineText } from './text';

export const Profile = z.object({
  id: z.uuid(),
  displayName: z.string(),
  plan: Plan,
  role: Role,
  quota: z.number().int(),
  template: z.string().nullable().describe('The default naming template of new batches, or null ({subject}).'),
  instructions: z.string().nullable().describe('The default instructions for the vision model, or null.'),
  createdAt: z.iso.datetime(),
  retainOriginalsDays: z
    .number()
    .int()
    .min(1)
    .nullable()
    .optional()
    .describe(
      'How many days the service keeps a batch’s originals (RETAIN_ORIGINALS_DAYS); each batch of GET /api/batch shows its date (removesAt). Null: kept until deleted.',
    ),
});
export type Profile = z.infer<typeof Profile>;

export const DISPLAY_NAME_MAX_LENGTH = 80;
export const DisplayName = SingleLineText.min(1, 'must not be empty').max(
  DISPLAY_NAME_MAX_LENGTH,
  `must be at most ${DISPLAY_NAME_MAX_LENGTH} characters`,
);

export const UpdateProfileBody = z
  .object({
    displayName: DisplayName.optional(),
    template: NamingTemplate.nullable().optional().describe('The default of new batches; null clears it.'),
    instructions: ModelInstructions.nullable().optional().describe('The default of new batches; null clears them.'),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'name at least one field to change');
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

export const QuotaResponse = z.object({
  plan: Plan,
  quota: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  periodStart: z.iso.datetime(),
  periodEnd: z.iso.datetime(),
});

export const CsrfResponse = z.object({ token: z.string() });

export const AUTH_PROVIDERS = ['oidc', 'github'] as const;
export const AuthProvider = z.enum(AUTH_PROVIDERS);
export type AuthProvider = z.infer<typeof AuthProvider>;

export const LoginQuery = z.object({
  returnTo: z.string().max(2048).optional(),
  provider: AuthProvider.optional().describe('Where to sign in; defaults to the only one configured, else `oidc`.'),
});
export const ProvidersResponse = z.object({
  providers: z.array(AuthProvider).describe('The sign-in providers this server is configured with.'),
});
export type ProvidersResponse = z.infer<typeof ProvidersResponse>;
export const CallbackQuery = z.object({
  code: SingleLineText.max(4096).optional(),
  state: SingleLineText.max(512).optional(),
  iss: SingleLineText.max(2048).optional(),
  error: SingleLineText.max(256).optional(),
  error_description: FreeText.max(1024).optional(),
});

export const CreateApiKeyBody = z.object({
  name: SingleLineText.min(1).max(100),
  expiresAt: z.iso.datetime().optional(),
});

export const ApiKeySummary = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
});

export const CreatedApiKey = ApiKeySummary.omit({ lastUsedAt: true }).extend({
  key: z.string().describe('Shown once: only its SHA-256 hash is stored.'),
});

export const ApiKeyList = z.object({ items: z.array(ApiKeySummary), nextCursor: z.string().nullable() });

export const IdParams = z.object({ id: z.uuid() });
