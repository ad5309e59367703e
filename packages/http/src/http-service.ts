import { randomUUID } from 'node:crypto';
import type { HealthChecks, Logger } from '@renamer/runtime';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { registerHealthRoutes } from './health-routes';
import { createMetrics, type Metrics, registerMetrics, registerReadinessMetric } from './metrics';
import { answerFrameworkError, createClientErrorHandler, MAX_PARAM_LENGTH, registerProblemHandlers } from './problem';
import { createResponseSerializerCompiler } from './response-serializer';
import { type SecurityHeaderOptions, securityHeaders } from './security-headers';

export interface HttpServiceOptions {
  logger: Logger;
  healthChecks: HealthChecks;
  metrics?: Metrics;
  service: string;
  /** Largest JSON body accepted; uploads use multipart streams and are not bound by this. */
  bodyLimit?: number;
  trustProxy?: boolean;
  /** helmet's default security headers on every answer (the services a browser talks to). */
  /** helmet's headers; `https` when the service's public address is https. */
  securityHeaders?: SecurityHeaderOptions;
  /** Check every answer against its zod schema before it is written (the test runs: see response-serializer). */
  checkResponses?: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** One line per request, when it completes, with the request's method and URL beside the answer's status. */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * The Fastify instance every service starts from: request ids (taken from `x-request-id` when sane) on
 * every log line and answer, zod validation, problem+json errors (those Node and Fastify raise before a
 * route runs included), health and Prometheus metrics.
 */
export function createHttpService(options: HttpServiceOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    logController: new OneLinePerRequest({ requestIdLogLabel: 'requestId' }),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
    return503OnClosing: true,
    // Signed download tokens travel as one path segment.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: createClientErrorHandler(options.logger),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createResponseSerializerCompiler({ checkAgainstSchema: options.checkResponses ?? false }));
  const headers = options.securityHeaders ? securityHeaders(options.securityHeaders) : {};
  // Callback style: an async hook would cost every request a promise for synchronous calls.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
  registerProblemHandlers(app);
  const metrics = options.metrics ?? createMetrics(options.service);
  registerMetrics(app, metrics);
  registerReadinessMetric(metrics, options.healthChecks);
  registerHealthRoutes(app, options.healthChecks);
  return app;
}
