import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import {
  AppError,
  ERROR_CODES,
  type ErrorCode,
  PROBLEM_CONTENT_TYPE,
  type Problem,
  type ProblemFieldError,
  problemTypeUri,
} from '@renamer/contracts';
import type { Logger } from '@renamer/runtime';
import { reportError } from '@renamer/telemetry';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { asUnavailable } from './dependency-down';

export function buildProblem(
  code: ErrorCode,
  detail: string,
  requestId: string,
  errors?: ProblemFieldError[],
): Problem {
  const { status, title } = ERROR_CODES[code];
  return { type: problemTypeUri(code), title, status, detail, code, requestId, ...(errors ? { errors } : {}) };
}

export function sendProblem(reply: FastifyReply, problem: Problem, headers: Record<string, string> = {}) {
  return reply.code(problem.status).headers(headers).type(PROBLEM_CONTENT_TYPE).send(problem);
}

/** Fastify's own client errors (bad JSON or URL, wrong content type, body or parameter too large) mapped onto our codes. */
const FASTIFY_STATUS_TO_CODE: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'file_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

function toProblem(error: FastifyError | AppError | Error, request: FastifyRequest): Problem {
  if (error instanceof AppError) return buildProblem(error.code, error.detail, request.id, error.errors);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = error.validation.map((issue) => ({
      path: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].filter(Boolean).join('.'),
      message: issue.message ?? 'is invalid',
    }));
    return buildProblem('validation_failed', 'The request is not valid.', request.id, errors);
  }
  const status = (error as FastifyError).statusCode;
  const code = status ? FASTIFY_STATUS_TO_CODE[status] : undefined;
  if (status && status < 500 && code) return buildProblem(code, error.message, request.id);
  return buildProblem(
    'internal',
    'Something went wrong on our side. Quote the requestId when reporting it.',
    request.id,
  );
}

/** The signed-in user behind a request, when the auth plugin found one: an id, never an email or a token. */
function callerOf(request: FastifyRequest): { userId?: string } {
  const userId = (request as { principal?: { user?: { id?: string } } }).principal?.user?.id;
  return userId ? { userId } : {};
}

function answerProblem(thrown: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const error = asUnavailable(thrown);
  const problem = toProblem(error, request);
  // A 5xx the service chose (uploads switched off, a dependency down, payments not configured) is a warning;
  // anything else is a failure to look into: logged with its stack and sent to error tracking.
  const deliberate = error instanceof AppError && problem.code !== 'internal';
  if (problem.status >= 500 && deliberate) {
    request.log.warn({ code: problem.code, detail: problem.detail }, 'request refused');
  } else if (problem.status >= 500) {
    request.log.error({ err: error }, 'request failed');
    reportError(error, { requestId: request.id, ...callerOf(request) });
  } else request.log.info({ code: problem.code, detail: problem.detail }, 'request refused');
  return sendProblem(reply, problem, error instanceof AppError ? error.headers : {});
}

/**
 * Fastify's `frameworkErrors`: a malformed percent-encoding or an over-long parameter in the path, found
 * while routing, so before any hook (the one that sets `x-request-id` included) has run.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  return answerProblem(error, request, reply);
}

const CLIENT_ERRORS: Record<string, { code: ErrorCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'headers_too_large',
    detail: 'The request headers are larger than this service accepts.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', detail: 'The request headers did not arrive in time.' },
};
const NOT_HTTP = { code: 'validation_failed', detail: 'The request is not valid HTTP.' } as const;

/**
 * Fastify's `clientErrorHandler`: Node could not parse the request, so there is no request to take an id
 * from and no reply; the problem document is written on the socket, which is then closed.
 */
export function createClientErrorHandler(logger: Logger) {
  return (error: ConnectionError, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { code, detail } = CLIENT_ERRORS[error.code] ?? NOT_HTTP;
    const requestId = randomUUID();
    const problem = buildProblem(code, detail, requestId);
    logger.info({ requestId, code, err: error }, 'request refused');
    const body = JSON.stringify(problem);
    socket.end(
      [
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
        `content-type: ${PROBLEM_CONTENT_TYPE}`,
        `content-length: ${Buffer.byteLength(body)}`,
        `x-request-id: ${requestId}`,
        'connection: close',
        '',
        body,
      ].join('\r\n'),
      () => socket.destroy(),
    );
  };
}

/** The longest path parameter a route takes (signed download tokens travel as one path segment). */
export const MAX_PARAM_LENGTH = 4096;

/** Whether a segment of the path, decoded, is longer than any route's parameter may be. */
function hasOverlongSegment(path: string): boolean {
  return path.split('/').some((segment) => {
    if (segment.length <= MAX_PARAM_LENGTH) return false;
    try {
      return decodeURIComponent(segment).length > MAX_PARAM_LENGTH;
    } catch {
      return true;
    }
  });
}

/**
 * One error handler for every service: every failure is answered as application/problem+json. A path no route
 * takes is 404, unless one of its segments is over the parameter limit: then it is 414 `uri_too_long` whatever the
 * method, as the router answers when a route's parameter is too long (it does so only where a route of that method
 * reaches the segment; this answers the same for every method and every path).
 */
export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler(answerProblem);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const problem = hasOverlongSegment(path)
      ? buildProblem('uri_too_long', `A segment of the path is longer than ${MAX_PARAM_LENGTH} characters.`, request.id)
      : buildProblem('not_found', `No route for ${request.method} ${path}.`, request.id);
    return sendProblem(reply, problem);
  });
}
