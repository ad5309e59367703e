export { type ErrorContext, flushErrorTracking, initErrorTracking, reportError } from './error-tracking';
export { withQuerySpans } from './query-spans';
export { activeTraceFields, bullmqTelemetry, flushTracing, tracingEnabled } from './tracing';
