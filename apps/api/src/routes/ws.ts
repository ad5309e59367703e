import websocket from '@fastify/websocket';
import { AppError } from '@renamer/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProgressHub } from '../ws/progress-hub';

export interface WsRoutesOptions {
  hub: ProgressHub;
  /** Origins a browser may connect from: the service's own and any configured extra ones. */
  allowedOrigins: ReadonlySet<string>;
}

/** Checked on the HTTP upgrade request, so a refused client gets a plain HTTP answer and no socket. */
function admitUpgrade(allowedOrigins: ReadonlySet<string>) {
  return async (request: FastifyRequest) => {
    if (request.credentialFailure === 'banned') throw new AppError('banned', 'This account has been banned.');
    if (!request.principal) throw new AppError('unauthenticated', 'Sign in or send an API key.');
    const origin = request.headers.origin;
    if (origin && !allowedOrigins.has(origin)) throw new AppError('forbidden', 'This origin may not connect.');
  };
}

export async function wsRoutes(app: FastifyInstance, { hub, allowedOrigins }: WsRoutesOptions) {
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  app.get(
    '/api/ws',
    { websocket: true, schema: { hide: true }, preValidation: admitUpgrade(allowedOrigins) },
    (socket, request) =>
      hub.accept(socket, request.principal!.user.id, () => app.credentialsStillValid(request).catch(() => true)),
  );
}
