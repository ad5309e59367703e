import { FeatureFlagList, FeatureFlagParams, FeatureFlagView, UpdateFeatureFlagBody } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FeatureFlagService } from '../../services/feature-flags';
import { actorOf } from '../actor';

/** The flags every service reads (within its cache time, at once when the change is announced). */
export async function featureFlagRoutes(app: FastifyInstance, { flags }: { flags: FeatureFlagService }) {
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
    async () => flags.list(),
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
        response: { 200: FeatureFlagView },
      },
    },
    async (request) => flags.set(actorOf(request), request.params.key, request.body, request.log),
  );
}
