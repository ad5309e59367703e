// Loaded with `node --import` before a service's own code (scripts/stack/start.ts, spawnService), so the
// instrumentations see http, fastify and ioredis load. Without an OTLP endpoint it does nothing at all.
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The name of the package whose code the process runs: the nearest package.json above its entry file, without the
 * scope (`@renamer/api` → `api`), from apps/api/src/server.ts and from an image's /app/dist/server.js alike.
 */
function serviceName(entry) {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (name) return name.replace(/^@[^/]+\//, '');
    } catch {
      // No package.json here: look one folder up.
    }
  }
  return 'renamer';
}

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  process.env.OTEL_SERVICE_NAME ??= serviceName(process.argv[1] ?? '.');
  const [{ NodeSDK }, { HttpInstrumentation }, { IORedisInstrumentation }, { default: FastifyOtel }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-ioredis'),
      import('@fastify/otel'),
    ]);
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        // Health probes and scrapes would drown the traces that matter.
        ignoreIncomingRequestHook: (request) => /^\/(health\/|metrics)/.test(request.url ?? ''),
      }),
      // The command's name only: keys and arguments hold ids and job payloads.
      new IORedisInstrumentation({ dbStatementSerializer: (command) => command }),
      new FastifyOtel({ registerOnInitialization: true }),
    ],
  });
  sdk.start();
  globalThis[Symbol.for('renamer.tracing.shutdown')] = () => sdk.shutdown();
}
