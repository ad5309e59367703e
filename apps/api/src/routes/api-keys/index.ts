import { principalOf } from '@renamer/auth';
import { ApiKeyList, CreateApiKeyBody, CreatedApiKey, IdParams } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toApiKeySummary } from '../../presenters';
import type { ApiKeyService } from '../../services/api-keys';

export async function apiKeyRoutes(app: FastifyInstance, { apiKeys }: { apiKeys: ApiKeyService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['api-keys'];

  typed.post(
    '/api/auth/api-keys',
    { schema: { tags, body: CreateApiKeyBody, response: { 201: CreatedApiKey } } },
    async (request, reply) => {
      const { created, key } = await apiKeys.create(principalOf(request).user.id, request.body);
      const { lastUsedAt: _neverUsedYet, ...summary } = toApiKeySummary(created);
      return reply.code(201).send({ ...summary, key });
    },
  );

  typed.get('/api/auth/api-keys', { schema: { tags, response: { 200: ApiKeyList } } }, async (request) => ({
    items: (await apiKeys.list(principalOf(request).user.id)).map(toApiKeySummary),
    nextCursor: null,
  }));

  typed.delete(
    '/api/auth/api-keys/:id',
    { schema: { tags, params: IdParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await apiKeys.delete(principalOf(request).user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
