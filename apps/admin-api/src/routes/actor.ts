import { principalOf } from '@renamer/auth';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../services/audit';

/** The admin behind `request`, and the request's id: who the audit log says made a change. */
export const actorOf = (request: FastifyRequest): Actor => ({
  actorId: principalOf(request).user.id,
  requestId: request.id,
});
