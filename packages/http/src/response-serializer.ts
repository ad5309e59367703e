import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerCompiler = FastifySerializerCompiler<unknown>;

/**
 * Answers are written by fast-json-stringify (Fastify's own serializer), compiled once per route and status
 * from the JSON Schema of the route's zod response schema: only the schema's properties are written, so a
 * field a handler adds by mistake never leaves the service. With `checkAgainstSchema` (the test runs) every
 * answer is first checked against the zod schema itself, so a handler that drifts from the contract fails its
 * tests. A schema JSON Schema cannot express (a transform, a custom type) keeps zod's own serializer.
 *
 * Why not zod at run time: checking and encoding each answer with zod, then `JSON.stringify`, was 9 % of the
 * API's CPU on `GET /api/batch/:id/status` (see docs/benchmarks.md).
 */
export function createResponseSerializerCompiler(options: { checkAgainstSchema: boolean }): SerializerCompiler {
  return (routeSchema) => {
    const checked = zodSerializerCompiler(routeSchema as Parameters<typeof zodSerializerCompiler>[0]);
    const compiled = compileFastJson(routeSchema.schema);
    if (!compiled) return checked;
    if (!options.checkAgainstSchema) return compiled;
    return (data) => {
      checked(data);
      return compiled(data);
    };
  };
}

function compileFastJson(schema: unknown): ((data: unknown) => string) | null {
  if (!(schema instanceof z.ZodType)) return null;
  let jsonSchema: object;
  try {
    jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
  } catch {
    return null;
  }
  return fastJson(jsonSchema) as (data: unknown) => string;
}
