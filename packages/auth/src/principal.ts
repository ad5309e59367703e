import { AppError } from '@renamer/contracts';
import type { User } from '@renamer/db';
import type { FastifyRequest } from 'fastify';

/** Who is calling, and how they proved it. */
export type Principal =
  | { user: User; via: 'session'; sessionId: string }
  | { user: User; via: 'apiKey'; apiKeyId: string };

/** Why credentials that were presented did not yield a principal. */
export type CredentialFailure = 'invalid' | 'banned';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    credentialFailure: CredentialFailure | null;
  }
}

/** The caller of a route behind `requireCredentials`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('unauthenticated');
  return request.principal;
}
