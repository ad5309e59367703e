import {
  AppError,
  FEATURE_FLAG_KEYS,
  FEATURE_FLAGS,
  type FeatureFlagKey,
  FeatureFlagList,
  FeatureFlagParams,
  type FeatureFlagView,
  FeatureFlagView as FeatureFlagViewSchema,
  isFeatureFlagKey,
  UpdateFeatureFlagBody,
} from '@renamer/contracts';
import type { AuditLogRepository, Database, FeatureFlag, FeatureFlagRepository } from '@renamer/db';
import type { FeatureFlags } from '@renamer/runtime';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAdminAction } from '../../audit';

export interface FeatureFlagRoutesOptions {
  db: Pick<Database, 'transaction'>;
  featureFlags: Pick<FeatureFlagRepository, 'get' | 'list' | 'upsert'>;
  auditLog: Pick<AuditLogRepository, 'append'>;
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

/** The flags every service reads (within its cache time, at once when the change is announced). */
export async function featureFlagRoutes(app: FastifyInstance, options: FeatureFlagRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['feature-flags'];

  typed.get(
    '/api/admin/feature-flags',
    {
      schema: {
        tags,
        operationId: 'listFeatureFlags',
        summary: 'Every flag with its value, default and description',
        response: { 200: FeatureFlagList },
      },
    },
    async () => {
      const rows = new Map((await options.featureFlags.list()).map((row) => [row.key, row]));
      return { items: FEATURE_FLAG_KEYS.map((key) => viewOf(key, rows.get(key))) };
    },
  );

  typed.put(
    '/api/admin/feature-flags/:key',
    {
      schema: {
        tags,
        operationId: 'setFeatureFlag',
        summary: 'Turn a flag on or off; every service follows within 5 s',
        params: FeatureFlagParams,
        body: UpdateFeatureFlagBody,
        response: { 200: FeatureFlagViewSchema },
      },
    },
    async (request) => {
      const { key } = request.params;
      if (!isFeatureFlagKey(key)) throw new AppError('not_found', `There is no feature flag ${key}.`);
      const view = await options.db.transaction(async (tx) => {
        const before = viewOf(key, await options.featureFlags.get(key, tx));
        const after = viewOf(key, await options.featureFlags.upsert({ key, ...request.body }, tx));
        await recordAdminAction(
          options.auditLog,
          request,
          {
            action: 'feature_flag.update',
            targetType: 'feature_flag',
            targetId: key,
            before: { enabled: before.enabled, description: before.description },
            after: { enabled: after.enabled, description: after.description },
          },
          tx,
        );
        return after;
      });
      await options.flags
        .announceChange()
        .catch((err) =>
          request.log.warn({ err }, 'flag change not announced; services see it within their cache time'),
        );
      return view;
    },
  );
}
