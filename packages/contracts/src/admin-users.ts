import { z } from 'zod';
import { AdminUser } from './admin';
import { QuotaResponse } from './auth';
import { ListQuery } from './batches';
import { Plan, Role } from './enums';
import { PaymentView } from './payments';

export const AdminUserListQuery = ListQuery.extend({
  q: z
    .string()
    .trim()
    .min(1)
    .max(320)
    .optional()
    .describe(
      'A user id, an email address (compared by its hash: emails are never stored), or part of a display name.',
    ),
  plan: Plan.optional(),
  role: Role.optional(),
  banned: z.stringbool().optional(),
});

export const AdminUserList = z.object({ items: z.array(AdminUser), nextCursor: z.string().nullable() });

const count = z.number().int().min(0);

export const QuotaCreditView = z.object({
  imageId: z.uuid().nullable().describe('Null once the image was deleted: the credit stays.'),
  reason: z.string().describe('Why the service was at fault.'),
  createdAt: z.iso.datetime(),
});
export type QuotaCreditView = z.infer<typeof QuotaCreditView>;

export const AdminUserDetail = AdminUser.extend({
  usage: QuotaResponse.omit({ plan: true }).describe('This calendar month (UTC).'),
  batches: count,
  activeSessions: count,
  activeApiKeys: count,
  payments: z.array(PaymentView).describe('The latest ten, newest first.'),
  quotaCredits: z
    .array(QuotaCreditView)
    .describe(
      'Images whose quota was given back because they failed for good through the service’s fault: the latest 50, newest first.',
    ),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetail>;

export const UpdateUserBody = z
  .object({
    plan: Plan.optional().describe('Without `quota`, the plan’s own quota comes with it.'),
    quota: z.number().int().min(0).max(1_000_000).optional().describe('Images per calendar month.'),
    role: Role.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'name at least one field to change');
