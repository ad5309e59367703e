// Loaded with `node --import` before a service's own code (scripts/stack/start.ts, spawnService), so the
// instrumentations see http, fastify and ioredis load. Without an OTLP endpoint it does nothing at all.
import { register } from 'node:module';
import { basename, dirname } from 'node:path';

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  // apps/<service>/src/server.ts names the service unless OTEL_SERVICE_NAME does.
  process.env.OTEL_SERVICE_NAME ??= basename(dirname(dirname(process.argv[1] ?? 'renamer/src')));
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
