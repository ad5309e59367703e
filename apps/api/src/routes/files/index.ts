import type { Readable } from 'node:stream';
import { AppError } from '@renamer/contracts';
import { contentDisposition, ObjectNotFoundError, type ObjectStore, verifyDownloadLink } from '@renamer/storage';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The stored bytes, streamed; documented as binary. */
const FileBytes = z.custom<Readable>().meta({ type: 'string', format: 'binary' });

export interface FilesRoutesOptions {
  store: Pick<ObjectStore, 'get' | 'stat'>;
  signingSecret: string;
}

/**
 * Serves the filesystem store's signed download links (`/api/files/<token>`): a tampered link is 403,
 * an expired one 410 `link_expired`; the object is streamed, never buffered.
 */
export async function filesRoutes(app: FastifyInstance, { store, signingSecret }: FilesRoutesOptions) {
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
            description: 'The stored bytes, streamed, with the file’s content type.',
            content: { 'application/octet-stream': { schema: FileBytes } },
          },
        },
        errors: ['forbidden', 'link_expired'],
      },
    },
    async (request, reply) => {
      const link = verifyDownloadLink(request.params.token, signingSecret);
      if (!link.ok && link.reason === 'expired') throw new AppError('link_expired', 'This download link has expired.');
      if (!link.ok) throw new AppError('forbidden', 'This download link is not valid.');
      const info = await store.stat(link.key);
      if (!info) throw new AppError('not_found', 'The file behind this link no longer exists.');
      const body = await store.get(link.key).catch((error) => {
        if (error instanceof ObjectNotFoundError)
          throw new AppError('not_found', 'The file behind this link no longer exists.');
        throw error;
      });
      reply
        .header('content-type', link.contentType ?? info.contentType ?? 'application/octet-stream')
        .header('content-length', info.size)
        .header('cache-control', 'private, no-store');
      if (link.filename) reply.header('content-disposition', contentDisposition(link.filename));
      return reply.send(body);
    },
  );
}
