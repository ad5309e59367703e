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
    {
      schema: {
        tags,
        operationId: 'createApiKey',
        summary: 'Create an API key; the key is shown in this answer only',
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey },
        errors: ['conflict'],
      },
    },
    async (request, reply) => {
      const { created, key } = await apiKeys.create(principalOf(request).user.id, request.body);
      const { lastUsedAt: _neverUsedYet, ...summary } = toApiKeySummary(created);
      return reply.code(201).send({ ...summary, key });
    },
  );

  typed.get(
    '/api/auth/api-keys',
    {
      schema: {
        tags,
        operationId: 'listApiKeys',
        summary: 'The caller’s API keys, without the keys',
        response: { 200: ApiKeyList },
      },
    },
    async (request) => ({
      items: (await apiKeys.list(principalOf(request).user.id)).map(toApiKeySummary),
      nextCursor: null,
    }),
  );

  typed.delete(
    '/api/auth/api-keys/:id',
    {
      schema: {
        tags,
        operationId: 'deleteApiKey',
        summary: 'Delete an API key: it stops working at once',
        params: IdParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await apiKeys.delete(principalOf(request).user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
