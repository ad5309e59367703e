import multipart from '@fastify/multipart';
import { principalOf } from '@renamer/auth';
import { AppError, BatchIdParams, BatchList, BatchStatusResponse, ListQuery, UploadResponse } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SIGNED_IN } from '../plugins/openapi';
import type { BatchService } from '../services/batches/batch-service';
import type { UploadLimits, UploadService } from '../services/batches/upload-service';

export interface BatchRoutesOptions {
  batches: BatchService;
  uploads: UploadService;
  limits: UploadLimits;
}

export async function batchRoutes(app: FastifyInstance, { batches, uploads, limits }: BatchRoutesOptions) {
  await app.register(multipart, {
    // Our own checks see an oversized file (one byte past the limit) and too many files; the
    // parser's limits only stop what those checks never reach.
    throwFileSizeLimit: false,
    limits: {
      fileSize: limits.maxFileBytes + 1,
      files: limits.maxFiles + 1,
      fields: 20,
      fieldSize: 8 * 1024,
      parts: limits.maxFiles + 21,
    },
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const guarded = { preHandler: app.authenticate };
  const schema = { tags: ['batches'], security: SIGNED_IN };

  typed.post(
    '/api/batch',
    {
      ...guarded,
      schema: {
        ...schema,
        consumes: ['multipart/form-data'],
        description: 'Parts named `files`; optional fields `name`, `keywords` (comma-separated), `locale`.',
        response: { 201: UploadResponse },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('validation_failed', 'Send the files as multipart/form-data.');
      const result = await uploads.upload(principalOf(request).user.id, request.parts());
      return reply.code(201).send(result);
    },
  );

  typed.get(
    '/api/batch',
    { ...guarded, schema: { ...schema, querystring: ListQuery, response: { 200: BatchList } } },
    (request) => batches.list(principalOf(request).user.id, request.query),
  );

  typed.get(
    '/api/batch/:batchId/status',
    { ...guarded, schema: { ...schema, params: BatchIdParams, response: { 200: BatchStatusResponse } } },
    (request) => batches.status(principalOf(request).user.id, request.params.batchId),
  );

  typed.post(
    '/api/batch/:batchId/cancel',
    { ...guarded, schema: { ...schema, params: BatchIdParams, response: { 202: BatchStatusResponse } } },
    async (request, reply) =>
      reply.code(202).send(await batches.cancel(principalOf(request).user.id, request.params.batchId)),
  );

  typed.post(
    '/api/batch/:batchId/retry',
    { ...guarded, schema: { ...schema, params: BatchIdParams, response: { 202: BatchStatusResponse } } },
    async (request, reply) =>
      reply.code(202).send(await batches.retry(principalOf(request).user.id, request.params.batchId)),
  );

  typed.delete(
    '/api/batch/:batchId',
    { ...guarded, schema: { ...schema, params: BatchIdParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await batches.delete(principalOf(request).user.id, request.params.batchId);
      return reply.code(204).send(null);
    },
  );
}
