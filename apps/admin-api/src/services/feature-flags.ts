import {
  AppError,
  FEATURE_FLAG_KEYS,
  FEATURE_FLAGS,
  type FeatureFlagKey,
  type FeatureFlagView,
  isFeatureFlagKey,
  type UpdateFeatureFlagBody,
} from '@renamer/contracts';
import type { AuditLogRepository, Database, FeatureFlag, FeatureFlagRepository } from '@renamer/db';
import type { CallLog, FeatureFlags } from '@renamer/runtime';
import type { z } from 'zod';
import { type Actor, entryBy } from './audit';

export interface FeatureFlagServiceDeps {
  db: Pick<Database, 'transaction'>;
  featureFlags: Pick<FeatureFlagRepository, 'get' | 'list' | 'upsert'>;
  auditLog: Pick<AuditLogRepository, 'append'>;
  /** Tells every service to read the flags again now rather than when their cache expires. */
  flags: Pick<FeatureFlags, 'announceChange'>;
}

function viewOf(key: FeatureFlagKey, row: FeatureFlag | null | undefined): FeatureFlagView {
  const known = FEATURE_FLAGS[key];
  return {
    key,
    enabled: row?.enabled ?? known.default,
    default: known.default,
    description: row?.description ?? known.description,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/** The flags every service reads (within its cache time, at once when a change is announced). */
export function createFeatureFlagService(deps: FeatureFlagServiceDeps) {
  return {
    async list() {
      const rows = new Map((await deps.featureFlags.list()).map((row) => [row.key, row]));
      return { items: FEATURE_FLAG_KEYS.map((key) => viewOf(key, rows.get(key))) };
    },

    /** The change and its audit entry (before and after) in one transaction; then every service is told. */
    async set(
      actor: Actor,
      key: string,
      change: z.output<typeof UpdateFeatureFlagBody>,
      log: CallLog,
    ): Promise<FeatureFlagView> {
      if (!isFeatureFlagKey(key)) throw new AppError('not_found', `There is no feature flag ${key}.`);
      const view = await deps.db.transaction(async (tx) => {
        const before = viewOf(key, await deps.featureFlags.get(key, tx));
        const after = viewOf(key, await deps.featureFlags.upsert({ key, ...change }, tx));
        await deps.auditLog.append(
          entryBy(actor, {
            action: 'feature_flag.update',
            targetType: 'feature_flag',
            targetId: key,
            before: { enabled: before.enabled, description: before.description },
            after: { enabled: after.enabled, description: after.description },
          }),
          tx,
        );
        return after;
      });
      await deps.flags
        .announceChange()
        .catch((err) => log.warn({ err }, 'flag change not announced; services see it within their cache time'));
      return view;
    },
  };
}

export type FeatureFlagService = ReturnType<typeof createFeatureFlagService>;
