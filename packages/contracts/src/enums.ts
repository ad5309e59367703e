import { z } from 'zod';

export const PLANS = ['basic', 'pro', 'max'] as const;
export const ROLES = ['user', 'admin'] as const;
export const BATCH_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export const IMAGE_STATUSES = ['queued', 'processing', 'ready', 'approved', 'failed', 'cancelled'] as const;
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'refunded', 'partially_refunded'] as const;

export const Plan = z.enum(PLANS);
export const Role = z.enum(ROLES);
export const BatchStatus = z.enum(BATCH_STATUSES);
export const ImageStatus = z.enum(IMAGE_STATUSES);
export const PaymentStatus = z.enum(PAYMENT_STATUSES);

export type Plan = z.infer<typeof Plan>;
export type Role = z.infer<typeof Role>;
export type BatchStatus = z.infer<typeof BatchStatus>;
export type ImageStatus = z.infer<typeof ImageStatus>;
export type PaymentStatus = z.infer<typeof PaymentStatus>;
