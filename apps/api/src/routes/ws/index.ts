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
  /** The id each admitted upgrade's socket is counted under, from the upgrade request to the socket. */
  const socketIds = new WeakMap<FastifyRequest, string>();
  // Last: a socket is counted only once everything else about the upgrade request was accepted.
  const admitUnderCap = async (request: FastifyRequest) => {
    socketIds.set(request, await hub.admit(principalOf(request).user.id));
  };

  app.get(
    '/api/ws',
    { websocket: true, schema: { hide: true }, onRequest: [admitOrigin(allowedOrigins), admitUnderCap] },
    (socket, request) => {
      const principal = principalOf(request);
      hub.accept(socket, {
        userId: principal.user.id,
        socketId: socketIds.get(request)!,
        log: request.log,
        raw: request.raw.socket,
        credential:
          principal.via === 'session'
            ? { via: 'session', id: principal.sessionId }
            : { via: 'apiKey', id: principal.apiKeyId },
      });
    },
  );
}
