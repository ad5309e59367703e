import type { Plan } from '@renamer/contracts';

/** Images per calendar month (UTC) that each plan includes; an admin may override a user's quota. */
export const PLAN_QUOTAS: Record<Plan, number> = { basic: 50, pro: 500, max: 1000 };
