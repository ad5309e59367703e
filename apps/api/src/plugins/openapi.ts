import swagger from '@fastify/swagger';
import { SECURITY_SCHEMES } from '@renamer/auth';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const OPENAPI_PATH = '/api/openapi.json';

/** The OpenAPI document is generated from the same zod schemas the routes validate with. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Renamer API',
        version,
        description: 'Bulk image renaming. The contract is docs/api.md; errors are RFC 9457 problem documents.',
      },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: jsonSchemaTransform,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
