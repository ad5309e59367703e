import type { Readable } from 'node:stream';
import { contentDisposition } from '@renamer/storage';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DownloadService } from '../../services/downloads/download-service';

/** The bytes, streamed; documented as binary. */
const FileBytes = z.custom<Readable>().meta({ type: 'string', format: 'binary' });

export interface FilesRoutesOptions {
  downloads: Pick<DownloadService, 'openLink'>;
}

/**
 * Serves signed download links (`/api/files/<token>`): a stored object (the filesystem driver's links), a
 * batch's ZIP archive, or an image with its SEO fields embedded. A tampered link is 403, an expired one 410
 * `link_expired`, one whose content went meanwhile 404; the bytes are streamed, never buffered.
 */
export async function filesRoutes(app: FastifyInstance, { downloads }: FilesRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/files/:token',
    {
      schema: {
        tags: ['files'],
        operationId: 'downloadFile',
        summary: 'The file behind a signed download link',
        params: z.object({ token: z.string().min(1).max(4096) }),
        response: {
          200: {
            description: 'The bytes, streamed: an image with its own content type, or a batch’s archive.',
            content: {
              'application/octet-stream': { schema: FileBytes },
              'application/zip': { schema: FileBytes },
            },
          },
        },
        errors: ['forbidden', 'link_expired'],
      },
    },
    async (request, reply) => {
      const file = await downloads.openLink(request.params.token, request.log);
      reply
        .header('content-type', file.contentType)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      if (file.size !== undefined) reply.header('content-length', file.size);
      if (file.filename) reply.header('content-disposition', contentDisposition(file.filename));
      return reply.send(file.body);
    },
  );
}
