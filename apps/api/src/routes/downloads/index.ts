import { principalOf } from '@renamer/auth';
import {
  BatchDownloadQuery,
  BatchDownloadResponse,
  BatchIdParams,
  BatchPreview,
  BatchPreviewQuery,
  DownloadLinkResponse,
  DownloadList,
  ImageDownloadQuery,
  ImageIdParams,
  ListQuery,
} from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DownloadService } from '../../services/downloads/download-service';

export interface DownloadRoutesOptions {
  downloads: DownloadService;
}

/** Links to an image's bytes and to a batch's archive, what that archive will hold, and the downloads made. */
export async function downloadRoutes(app: FastifyInstance, { downloads }: DownloadRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/image/:imageId/download',
    {
      schema: {
        tags: ['images'],
        operationId: 'getImageDownloadLink',
        summary: 'A 15-minute link to the image’s file under its current filename',
        params: ImageIdParams,
        querystring: ImageDownloadQuery,
        response: { 200: DownloadLinkResponse },
      },
    },
    (request) => downloads.imageLink(principalOf(request).user.id, request.params.imageId, request.query),
  );

  typed.get(
    '/api/downloads',
    {
      schema: {
        tags: ['downloads'],
        operationId: 'listDownloads',
        summary: 'The caller’s downloads, newest first: what each held, how it was made, the bytes sent',
        querystring: ListQuery,
        response: { 200: DownloadList },
        errors: ['invalid_cursor'],
      },
    },
    (request) => downloads.list(principalOf(request).user.id, request.query),
  );

  typed.get(
    '/api/batch/:batchId/preview',
    {
      schema: {
        tags: ['batches'],
        operationId: 'previewBatchDownload',
        summary: 'The entries the batch’s archive will hold',
        params: BatchIdParams,
        querystring: BatchPreviewQuery,
        response: { 200: BatchPreview },
      },
    },
    (request) => downloads.preview(principalOf(request).user.id, request.params.batchId, request.query),
  );

  typed.post(
    '/api/batch/:batchId/download',
    {
      schema: {
        tags: ['batches'],
        operationId: 'createBatchDownload',
        summary: 'A 60-minute link to the batch’s images as a ZIP archive',
        params: BatchIdParams,
        querystring: BatchDownloadQuery,
        response: { 200: BatchDownloadResponse },
        errors: ['conflict'],
      },
    },
    (request) => downloads.batchLink(principalOf(request).user.id, request.params.batchId, request.query),
  );
}
