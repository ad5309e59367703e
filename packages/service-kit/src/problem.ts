import {
  AppError,
  ERROR_CODES,
  type ErrorCode,
  PROBLEM_CONTENT_TYPE,
  type Problem,
  type ProblemFieldError,
  problemTypeUri,
} from '@renamer/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

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

/** Fastify's own client errors (bad JSON, wrong content type, body too large) mapped onto our codes. */
const FASTIFY_STATUS_TO_CODE: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'file_too_large',
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

/** One error handler for every service: every failure is answered as application/problem+json. */
export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const problem = toProblem(error, request);
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: problem.code, detail: problem.detail }, 'request refused');
    return sendProblem(reply, problem, error instanceof AppError ? error.headers : {});
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      buildProblem('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`, request.id),
    ),
  );
}
