import { z } from 'zod';

export const PLANS = ['basic', 'pro', 'max'] as const;
export const ROLES = ['user', 'admin'] as const;
export const BATCH_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export const IMAGE_STATUSES = ['queued', 'processing', 'ready', 'approved', 'failed', 'cancelled'] as const;
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'refunded', 'partially_refunded'] as const;

export const Plan = z.enum(PLANS);
/** Images per calendar month (UTC) that each plan includes; an admin may override a user's quota. */
export const PLAN_QUOTAS = { basic: 50, pro: 500, max: 1000 } as const satisfies Record<(typeof PLANS)[number], number>;
/** The plans as people read them. */
export const PLAN_NAMES = { basic: 'Basic', pro: 'Pro', max: 'Max' } as const satisfies Record<
  (typeof PLANS)[number],
  string
>;
export const Role = z.enum(ROLES);
export const BatchStatus = z.enum(BATCH_STATUSES);
export const ImageStatus = z.enum(IMAGE_STATUSES);
export const PaymentStatus = z.enum(PAYMENT_STATUSES);

export type Plan = z.infer<typeof Plan>;
export type Role = z.infer<typeof Role>;
export type BatchStatus = z.infer<typeof BatchStatus>;
export type ImageStatus = z.infer<typeof ImageStatus>;
export type PaymentStatus = z.infer<typeof PaymentStatus>;
