export { type ErrorContext, flushErrorTracking, initErrorTracking, reportError } from './error-tracking';
export { activeTraceFields, bullmqTelemetry, flushTracing, tracingEnabled } from './tracing';
