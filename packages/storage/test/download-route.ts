import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { contentDisposition, ObjectNotFoundError, type ObjectStore, verifyDownloadLink } from '../src/index';

/** A stand-in for the API's `GET /api/files/:token` route: 403 tampered, 410 expired, 404 missing. */
export async function startDownloadRoute(
  store: () => ObjectStore,
  secret: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const token = /^\/api\/files\/([^/?]+)$/.exec(request.url ?? '')?.[1];
    const link = token ? verifyDownloadLink(token, secret) : undefined;
    if (!link?.ok) {
      response.writeHead(link?.reason === 'expired' ? 410 : link ? 403 : 404).end();
      return;
    }
    try {
      const info = await store().stat(link.key);
      if (!info) throw new ObjectNotFoundError(link.key);
      const body = await store().get(link.key);
      response.setHeader('content-type', link.contentType ?? info.contentType ?? 'application/octet-stream');
      response.setHeader('content-length', info.size);
      if (link.filename) response.setHeader('content-disposition', contentDisposition(link.filename));
      await pipeline(body, response);
    } catch (error) {
      response.writeHead(error instanceof ObjectNotFoundError ? 404 : 500).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
