import { users } from '../schema';

/**
 * The user columns without the quota counter, which only `reserveQuota` and `getUsage` interpret, and without
 * `email_verified`, which only the search for an account to link reads.
 */
export const userColumns = {
  id: users.id,
  provider: users.provider,
  providerSubject: users.providerSubject,
  displayName: users.displayName,
  emailHash: users.emailHash,
  plan: users.plan,
  quota: users.quota,
  role: users.role,
  bannedAt: users.bannedAt,
  banReason: users.banReason,
  stripeCustomerId: users.stripeCustomerId,
  template: users.template,
  instructions: users.instructions,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};
