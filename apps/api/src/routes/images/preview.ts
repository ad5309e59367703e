import type { Readable } from 'node:stream';
import { principalOf } from '@renamer/auth';
import { IMAGE_FORMAT_ENTRIES, ImageIdParams, ImagePreviewQuery } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ImagePreviewService } from '../../services/images/image-preview-service';

/** The preview's bytes; documented as binary. */
const PreviewBytes = z.custom<Readable | Buffer>().meta({ type: 'string', format: 'binary' });

/** `?size=full` of a format browsers show is the original, in its own type. */
const ORIGINAL_CONTENT = Object.fromEntries(
  IMAGE_FORMAT_ENTRIES.flatMap(([, facts]) => (facts.shownByBrowsers ? facts.mimeTypes : [])).map((type) => [
    type,
    { schema: PreviewBytes },
  ]),
);

/**
 * How long a browser uses its copy without asking again. Private: the preview is the owner's. An hour, because
 * a copy can outlive the image's deletion only that long, and asking again with `If-None-Match` is one query.
 */
export const PREVIEW_CACHE_CONTROL = 'private, max-age=3600';

export interface ImagePreviewRoutesOptions {
  previews: ImagePreviewService;
}

export async function imagePreviewRoutes(app: FastifyInstance, { previews }: ImagePreviewRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/image/:imageId/preview',
    {
      schema: {
        tags: ['images'],
        operationId: 'getImagePreview',
        summary:
          'An image’s preview: WebP, upright, 512 px (large: 1600 px) on the long side at most, without metadata; or the original itself (full)',
        params: ImageIdParams,
        querystring: ImagePreviewQuery,
        // Loose: the other headers stay as they came.
        headers: z.looseObject({
          'if-none-match': z.string().max(1024).optional().describe('The `ETag` of the copy the client holds.'),
        }),
        response: {
          200: {
            description:
              'The preview (made from the original first, when the analysis has not stored one; a large one on its first request).',
            content: { ...ORIGINAL_CONTENT, 'image/webp': { schema: PreviewBytes } },
          },
          304: z.null().describe('The copy named by `If-None-Match` is current; no body.'),
        },
        errors: ['undecodable_image'],
      },
    },
    async (request, reply) => {
      const { etag, contentType, size, body } = await previews.preview(
        principalOf(request).user.id,
        request.params.imageId,
        request.query.size,
        request.headers['if-none-match'],
        request.log,
      );
      reply.header('etag', etag).header('cache-control', PREVIEW_CACHE_CONTROL);
      if (!body) return reply.code(304).send(null);
      if (size !== undefined) reply.header('content-length', size);
      return reply.header('content-type', contentType).send(body);
    },
  );
}
