import multipart from '@fastify/multipart';
import { principalOf, readWithCredentials } from '@renamer/auth';
import {
  AppError,
  BatchCheckBody,
  BatchCheckResponse,
  BatchIdParams,
  BatchList,
  BatchStatusResponse,
  ListQuery,
  ProposeBody,
  ProposeChanges,
  ProposeQuery,
  UpdateBatchBody,
  UploadForm,
  UploadResponse,
} from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BatchService } from '../../services/batches/batch-service';
import type { UploadService } from '../../services/batches/upload-service';
import { createGcNudge } from './gc-nudge';
import { readMultipartUpload } from './multipart-upload';

export interface BatchRoutesOptions {
  batches: BatchService;
  uploads: UploadService;
}

export async function batchRoutes(app: FastifyInstance, { batches, uploads }: BatchRoutesOptions) {
  const { limits } = uploads;
  const gcNudge = createGcNudge();
  await app.register(multipart, {
    // Our own checks see an oversized file (one byte past the limit) and too many files; the
    // parser's limits only stop what those checks never reach.
    throwFileSizeLimit: false,
    limits: {
      fileSize: Math.max(limits.maxFileBytes, limits.maxRawBytes) + 1,
      files: limits.maxFiles + 1,
      fields: 20,
      fieldSize: 8 * 1024,
      parts: limits.maxFiles + 21,
    },
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const schema = { tags: ['batches'] };
  /** Cancel and retry: a change of the batch's status, answered with the new status. */
  const statusChange = { params: BatchIdParams, response: { 202: BatchStatusResponse }, errors: ['conflict'] as const };

  typed.post(
    '/api/batch',
    {
      schema: {
        ...schema,
        operationId: 'uploadBatch',
        summary: 'Upload images as a new batch',
        multipartForm: UploadForm,
        response: { 201: UploadResponse },
        errors: [
          'validation_failed',
          'quota_exceeded',
          'duplicate_file',
          'too_many_files',
          'unsupported_media_type',
          'upload_rejected',
          'uploads_disabled',
          'invalid_template',
        ],
      },
    },
    async (request, reply) => {
      await uploads.assertEnabled();
      if (!request.isMultipart()) throw new AppError('validation_failed', 'Send the files as multipart/form-data.');
      const upload = readMultipartUpload(request, { onFileRead: gcNudge.bodyRead });
      return reply.code(201).send(await uploads.upload(principalOf(request).user, upload, request.log));
    },
  );

  typed.get(
    '/api/batch',
    {
      schema: {
        ...schema,
        operationId: 'listBatches',
        summary: 'The caller’s batches, newest first',
        querystring: ListQuery,
        response: { 200: BatchList },
        errors: ['invalid_cursor'],
      },
    },
    (request) => batches.list(principalOf(request).user.id, request.query),
  );

  // Polled by scripts: the statement that checks the credentials reads the status too, one database round trip in all.
  const statusRead = readWithCredentials((request) => {
    const params = BatchIdParams.safeParse(request.params);
    return params.success ? batches.statusWithCredentials(params.data.batchId) : undefined;
  });
  typed.get(
    '/api/batch/:batchId/status',
    {
      schema: {
        ...schema,
        operationId: 'getBatchStatus',
        summary: 'A batch’s status and progress',
        params: BatchIdParams,
        response: { 200: BatchStatusResponse },
      },
      config: statusRead.config,
    },
    (request) => batches.status(principalOf(request).user.id, request.params.batchId, statusRead.of(request)),
  );

  typed.post(
    '/api/batch/check',
    {
      schema: {
        ...schema,
        operationId: 'checkFiles',
        summary: 'Which of these files (by SHA-256) the caller already has, so a client skips them',
        body: BatchCheckBody,
        response: { 200: BatchCheckResponse },
      },
    },
    (request) => batches.existingFiles(principalOf(request).user.id, request.body.checksums),
  );

  typed.patch(
    '/api/batch/:batchId',
    {
      schema: {
        ...schema,
        operationId: 'updateBatch',
        summary:
          'Change the name, keywords, context, locale, naming template or model instructions that later proposals use',
        params: BatchIdParams,
        body: UpdateBatchBody,
        response: { 200: BatchStatusResponse },
        errors: ['invalid_template'],
      },
    },
    (request) => batches.updateSettings(principalOf(request).user.id, request.params.batchId, request.body),
  );

  typed.post(
    '/api/batch/:batchId/propose',
    {
      schema: {
        ...schema,
        operationId: 'proposeAgain',
        summary: 'Name the images again with the batch’s current keywords, context, template, instructions and locale',
        params: BatchIdParams,
        querystring: ProposeQuery,
        body: ProposeBody.default({ includeEdited: false }),
        response: { 200: ProposeChanges, 202: BatchStatusResponse },
        errors: ['conflict', 'unavailable'],
      },
    },
    async (request, reply) => {
      const { imageIds, includeEdited } = request.body;
      const answer = await batches.propose(
        principalOf(request).user.id,
        request.params.batchId,
        { imageIds, includeEdited },
        request.query.dryRun,
        request.log,
      );
      return reply.code('changes' in answer ? 200 : 202).send(answer);
    },
  );

  typed.post(
    '/api/batch/:batchId/cancel',
    {
      schema: {
        ...schema,
        operationId: 'cancelBatch',
        summary: 'Cancel the images not yet analysed',
        ...statusChange,
      },
    },
    async (request, reply) =>
      reply.code(202).send(await batches.cancel(principalOf(request).user.id, request.params.batchId)),
  );

  typed.post(
    '/api/batch/:batchId/retry',
    {
      schema: {
        ...schema,
        operationId: 'retryBatch',
        summary: 'Queue the failed and cancelled images again',
        ...statusChange,
      },
    },
    async (request, reply) =>
      reply.code(202).send(await batches.retry(principalOf(request).user.id, request.params.batchId, request.log)),
  );

  typed.delete(
    '/api/batch/:batchId',
    {
      schema: {
        ...schema,
        operationId: 'deleteBatch',
        summary: 'Delete a batch with its images and stored objects',
        params: BatchIdParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await batches.delete(principalOf(request).user.id, request.params.batchId, request.log);
      return reply.code(204).send(null);
    },
  );
}
