import swagger from '@fastify/swagger';
import { ERROR_CODES, type ErrorCode, PROBLEM_CONTENT_TYPE, Problem } from '@renamer/contracts';
import { createLogger, createPlatform, type PlatformEnv } from '@renamer/runtime';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import type { ServiceDeps } from './run-service';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The error codes a route can answer beyond the ones every route can (`validation_failed` when it
     * validates input, `not_found` with a path parameter, `internal`); plugins that refuse requests add
     * theirs (the guard, the rate limiter). Each is documented as a problem response.
     */
    errors?: readonly ErrorCode[];
    /**
     * The form of a `multipart/form-data` route that reads its parts as a stream (so fastify validates no
     * body): documented as the operation's request body.
     */
    multipartForm?: z.ZodType;
  }
}

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  /** Where the document is served (publicly). */
  path: string;
  securitySchemes: Record<string, OpenAPIV3_1.SecuritySchemeObject>;
  tags: OpenAPIV3_1.TagObject[];
}

/** Adds `codes` to the error codes `schema` declares. */
export function withErrors(schema: FastifySchema | undefined, codes: readonly ErrorCode[]): FastifySchema {
  return { ...schema, errors: [...new Set([...codes, ...(schema?.errors ?? [])])] };
}

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };
// The repository is private and carries no open-source licence.
const LICENSE: OpenAPIV3_1.LicenseObject = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
const { $schema: _dialect, ...problemJsonSchema } = z.toJSONSchema(Problem, {
  io: 'output',
}) as OpenAPIV3_1.SchemaObject;

function formJsonSchema(form: z.ZodType) {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(form, { io: 'input' });
  return schema;
}

/** What every route can answer, whatever it declares. */
function commonErrors(schema: FastifySchema, url: string): ErrorCode[] {
  const validates = Boolean(schema.params || schema.querystring || schema.body);
  return [...(validates ? ['validation_failed' as const] : []), ...(url.includes(':') ? ['not_found' as const] : [])];
}

/** One response per status, naming each code it stands for; all are problem documents. */
function problemResponses(codes: readonly ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'internal' as const]) {
    const { status } = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, sameStatus]) => [
      status,
      {
        description: sameStatus.map((code) => `${ERROR_CODES[code].title} (\`${code}\`)`).join('; '),
        ...(status === 429 ? { headers: { 'retry-after': { type: 'integer', description: 'Seconds to wait.' } } } : {}),
        content: { [PROBLEM_CONTENT_TYPE]: { schema: PROBLEM_REF } },
      },
    ]),
  );
}

/**
 * The service's OpenAPI document, generated from the zod schemas its routes validate with and served at
 * `path`. Every operation lists the problem documents it can answer; one without credentials in its
 * schema (`security`, set by the guard) is public and marked `security: []`. Register it before routes.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, version: options.version, description: options.description, license: LICENSE },
      // Relative: the service that serves the document serves the operations.
      servers: [{ url: '/', description: 'This service.' }],
      tags: options.tags,
      components: { securitySchemes: options.securitySchemes, schemas: { Problem: problemJsonSchema } },
    },
    transform: (document) => {
      const { schema, url } = document;
      if (!schema || schema.hide) return jsonSchemaTransform(document);
      const { errors = [], multipartForm, ...routeSchema } = schema;
      const transformed = jsonSchemaTransform({ ...document, schema: routeSchema }).schema;
      return {
        url,
        schema: {
          ...transformed,
          ...(multipartForm && { consumes: ['multipart/form-data'], body: formJsonSchema(multipartForm) }),
          security: routeSchema.security ?? [],
          response: {
            ...(transformed.response as object),
            ...problemResponses([...commonErrors(routeSchema, url), ...errors]),
          },
        },
      };
    },
  });
  app.get(options.path, { schema: { hide: true } }, async () => app.swagger());
}

/** A service's OpenAPI document as it is committed: built on a platform that opens no connection. */
export async function renderOpenApiDocument<E extends PlatformEnv>(
  env: E,
  build: (deps: ServiceDeps<E>) => Promise<FastifyInstance>,
): Promise<string> {
  const platform = createPlatform(env);
  const app = await build({ env, logger: createLogger('openapi', 'silent'), platform });
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
    await platform.close();
  }
}
