import { principalOf } from '@renamer/auth';
import { AppError } from '@renamer/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProgressHub } from '../../ws/progress-hub';

export interface WsRoutesOptions {
  hub: ProgressHub;
  /** Origins a browser may connect from: the service's own and any configured extra ones. */
  allowedOrigins: ReadonlySet<string>;
}

/**
 * Checked on the HTTP upgrade request (after the credentials), so a refused client gets a plain HTTP
 * answer and no socket.
 */
function admitOrigin(allowedOrigins: ReadonlySet<string>) {
  return async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin && !allowedOrigins.has(origin)) throw new AppError('forbidden', 'This origin may not connect.');
  };
}

export async function wsRoutes(app: FastifyInstance, { hub, allowedOrigins }: WsRoutesOptions) {
  app.get(
    '/api/ws',
    { websocket: true, schema: { hide: true }, onRequest: admitOrigin(allowedOrigins) },
    (socket, request) =>
      hub.accept(socket, {
        userId: principalOf(request).user.id,
        log: request.log,
        credentialsStillValid: () => app.credentialsStillValid(request).catch(() => true),
      }),
  );
}
