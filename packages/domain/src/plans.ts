export { PLAN_QUOTAS } from '@renamer/contracts';
