import { principalOf } from '@renamer/auth';
import { CsrfResponse, Profile, QuotaResponse, UpdateProfileBody } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SIGNED_IN } from '../../plugins/openapi';
import { toProfile } from '../../presenters';
import type { createAccountService } from '../../services/account';

export interface AccountRoutesOptions {
  account: ReturnType<typeof createAccountService>;
  revokeSession: (sessionId: string) => Promise<unknown>;
}

export async function accountRoutes(app: FastifyInstance, { account, revokeSession }: AccountRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const guarded = { preHandler: app.authenticate };
  const tags = ['auth'];

  typed.post(
    '/api/auth/logout',
    {
      ...guarded,
      schema: { tags, security: SIGNED_IN, response: { 204: z.null() } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (principal.via === 'session') await revokeSession(principal.sessionId);
      app.clearSession(reply);
      return reply.code(204).send(null);
    },
  );

  typed.get('/api/auth/csrf', { schema: { tags, response: { 200: CsrfResponse } } }, async (_request, reply) => ({
    token: reply.generateCsrf(),
  }));

  typed.get(
    '/api/auth/me',
    { ...guarded, schema: { tags, security: SIGNED_IN, response: { 200: Profile } } },
    async (request) => toProfile(principalOf(request).user),
  );

  typed.patch(
    '/api/auth/me',
    { ...guarded, schema: { tags, security: SIGNED_IN, body: UpdateProfileBody, response: { 200: Profile } } },
    async (request) => toProfile(await account.rename(principalOf(request).user.id, request.body.displayName)),
  );

  typed.delete(
    '/api/auth/me',
    { ...guarded, schema: { tags, security: SIGNED_IN, response: { 204: z.null() } } },
    async (request, reply) => {
      await account.delete(principalOf(request).user.id);
      app.clearSession(reply);
      return reply.code(204).send(null);
    },
  );

  typed.get(
    '/api/auth/quota',
    { ...guarded, schema: { tags, security: SIGNED_IN, response: { 200: QuotaResponse } } },
    async (request) => {
      const { user } = principalOf(request);
      const usage = await account.quota(user.id);
      return {
        plan: user.plan,
        quota: usage.quota,
        used: usage.used,
        remaining: usage.remaining,
        periodStart: usage.periodStart.toISOString(),
        periodEnd: usage.periodEnd.toISOString(),
      };
    },
  );
}
