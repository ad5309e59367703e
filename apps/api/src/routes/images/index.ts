import { principalOf } from '@renamer/auth';
import {
  ApproveBatchBody,
  ApproveBatchResponse,
  BatchIdParams,
  FilenameCheckBody,
  FilenameCheckResponse,
  ImageDetail,
  ImageIdParams,
  ImageList,
  ImageListQuery,
  RenameImageBody,
  RevertImageBody,
  UnapproveBatchBody,
  UnapproveBatchResponse,
} from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ImageService } from '../../services/images/image-service';

export interface ImageRoutesOptions {
  images: ImageService;
}

export async function imageRoutes(app: FastifyInstance, { images }: ImageRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const schema = { tags: ['images'] };
  const oneImage = { params: ImageIdParams, response: { 200: ImageDetail } };

  typed.get(
    '/api/image/:imageId',
    {
      schema: {
        ...schema,
        ...oneImage,
        operationId: 'getImage',
        summary: 'An image with its filename history, newest first',
      },
    },
    (request) => images.get(principalOf(request).user.id, request.params.imageId),
  );

  typed.get(
    '/api/image/batch/:batchId',
    {
      schema: {
        ...schema,
        operationId: 'listBatchImages',
        summary: 'A batch’s images, a page at a time, optionally of one status, in upload order or lowest score first',
        params: BatchIdParams,
        querystring: ImageListQuery,
        response: { 200: ImageList },
        errors: ['invalid_cursor'],
      },
    },
    (request) => images.listByBatch(principalOf(request).user.id, request.params.batchId, request.query),
  );

  typed.post(
    '/api/image/filename-check',
    {
      schema: {
        ...schema,
        operationId: 'checkFilename',
        summary: 'A name as the rules would make it, with its SEO score and why it would be refused; saves nothing',
        body: FilenameCheckBody,
        response: { 200: FilenameCheckResponse },
        errors: ['invalid_template'],
      },
    },
    (request) => images.checkFilename(principalOf(request).user.id, request.body),
  );

  typed.put(
    '/api/image/:imageId/filename',
    {
      schema: {
        ...schema,
        ...oneImage,
        operationId: 'renameImage',
        summary: 'Give an image a new filename, normalised by the filename rules',
        body: RenameImageBody,
        errors: ['invalid_filename', 'filename_conflict', 'conflict'],
      },
    },
    (request) => images.rename(principalOf(request).user.id, request.params.imageId, request.body.filename),
  );

  typed.post(
    '/api/image/:imageId/approve',
    {
      schema: {
        ...schema,
        ...oneImage,
        operationId: 'approveImage',
        summary: 'Approve an image',
        errors: ['conflict'],
      },
    },
    (request) => images.approve(principalOf(request).user.id, request.params.imageId),
  );

  typed.post(
    '/api/image/:imageId/unapprove',
    {
      schema: {
        ...schema,
        ...oneImage,
        operationId: 'unapproveImage',
        summary: 'Take an image back to ready, its filename unchanged',
        errors: ['conflict'],
      },
    },
    (request) => images.unapprove(principalOf(request).user.id, request.params.imageId),
  );

  typed.post(
    '/api/image/:imageId/revert',
    {
      schema: {
        ...schema,
        ...oneImage,
        operationId: 'revertImageFilename',
        summary: 'Give an image back its uploaded name or the proposed one',
        body: RevertImageBody,
        errors: ['filename_conflict', 'conflict'],
      },
    },
    (request) => images.revert(principalOf(request).user.id, request.params.imageId, request.body?.to ?? 'original'),
  );

  typed.post(
    '/api/image/batch/:batchId/approve',
    {
      schema: {
        ...schema,
        operationId: 'approveBatchImages',
        summary: 'Approve every ready image of a batch, or the listed ones',
        params: BatchIdParams,
        body: ApproveBatchBody,
        response: { 200: ApproveBatchResponse },
      },
    },
    (request) => images.approveBatch(principalOf(request).user.id, request.params.batchId, request.body?.imageIds),
  );

  typed.post(
    '/api/image/batch/:batchId/unapprove',
    {
      schema: {
        ...schema,
        operationId: 'unapproveBatchImages',
        summary: 'Take back the approval of every approved image of a batch, or of the listed ones',
        params: BatchIdParams,
        body: UnapproveBatchBody,
        response: { 200: UnapproveBatchResponse },
      },
    },
    (request) => images.unapproveBatch(principalOf(request).user.id, request.params.batchId, request.body?.imageIds),
  );
}
