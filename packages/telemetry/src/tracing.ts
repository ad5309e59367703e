import { isSpanContextValid, trace } from '@opentelemetry/api';
import { BullMQOtel } from 'bullmq-otel';

/**
 * Tracing is on when an OTLP endpoint is configured (the standard OpenTelemetry variables); `register.mjs`,
 * loaded with `--import` before anything else, then starts the SDK. Off, nothing here costs anything.
 */
export const tracingEnabled = (env: NodeJS.ProcessEnv = process.env): boolean =>
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);

/** The active span's ids, for a log line; none outside a span. */
export function activeTraceFields(): { traceId: string; spanId: string } | Record<string, never> {
  const context = trace.getActiveSpan()?.spanContext();
  return context && isSpanContextValid(context) ? { traceId: context.traceId, spanId: context.spanId } : {};
}

/** BullMQ's own telemetry: the trace travels in the job's options, the strict payloads stay as they are. */
export const bullmqTelemetry = (): BullMQOtel | undefined =>
  tracingEnabled() ? new BullMQOtel({ tracerName: 'renamer' }) : undefined;

/** Sends the spans still buffered; the service calls it as it shuts down. */
export async function flushTracing(): Promise<void> {
  const flush = (globalThis as Record<symbol, unknown>)[Symbol.for('renamer.tracing.shutdown')];
  if (typeof flush === 'function') await (flush as () => Promise<void>)();
}
