/**
 * Error tracking with Sentry when SENTRY_DSN is set: unexpected errors (5xx answers, jobs failed for good,
 * uncaught exceptions) with the request id and user id, never emails, tokens or cookies. Unset, the SDK is
 * never even loaded.
 */
type Sentry = typeof import('@sentry/node');

let sentry: Sentry | undefined;

export interface ErrorContext {
  requestId?: string;
  userId?: string;
  job?: string;
  jobId?: string;
}

const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key', 'stripe-signature'];

export async function initErrorTracking(options: { dsn: string | undefined; service: string; environment: string }) {
  if (!options.dsn || sentry) return;
  const loaded = await import('@sentry/node');
  loaded.init({
    dsn: options.dsn,
    environment: options.environment,
    serverName: options.service,
    // OpenTelemetry is ours (register.mjs): Sentry registers no tracer provider (its default) and transforms
    // no module; it only reports errors.
    enableOpenTelemetrySetup: false,
    enableRuntimeChannelInjection: false,
    tracesSampleRate: 0,
    // Only what the service reports (reportError) and what nothing caught: no request, database or session
    // instrumentation of its own, which would report the same errors again without our request id.
    defaultIntegrations: false,
    integrations: [
      loaded.onUncaughtExceptionIntegration(),
      loaded.onUnhandledRejectionIntegration(),
      loaded.linkedErrorsIntegration(),
    ],
    beforeSend(event) {
      const headers = event.request?.headers;
      if (headers)
        for (const name of Object.keys(headers)) if (SECRET_HEADERS.includes(name.toLowerCase())) delete headers[name];
      if (event.request) delete event.request.cookies;
      if (event.user) event.user = event.user.id ? { id: event.user.id } : {};
      return event;
    },
  });
  loaded.setTag('service', options.service);
  sentry = loaded;
}

export function reportError(error: unknown, context: ErrorContext = {}): void {
  if (!sentry) return;
  sentry.withScope((scope) => {
    const { userId, ...tags } = context;
    for (const [name, value] of Object.entries(tags)) if (value) scope.setTag(name, value);
    if (userId) scope.setUser({ id: userId });
    sentry!.captureException(error);
  });
}

/** Sends what is still queued; the service calls it as it shuts down. */
export async function flushErrorTracking(): Promise<void> {
  await sentry?.flush(2_000);
}
