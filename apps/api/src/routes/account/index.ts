import { type AccountService, toProfile, toQuota } from '@renamer/accounts';
import { principalOf } from '@renamer/auth';
import { Profile, QuotaResponse, UpdateProfileBody } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SignInService } from '../../services/sign-in';

export interface AccountRoutesOptions {
  account: AccountService;
  signIn: Pick<SignInService, 'signOut'>;
  /** RETAIN_ORIGINALS_DAYS, told in the profile (the account page says the policy). */
  retainOriginalsDays?: number | undefined;
}

/** The caller's own account: signing out, the profile, its deletion and the month's quota. */
export async function accountRoutes(
  app: FastifyInstance,
  { account, signIn, retainOriginalsDays }: AccountRoutesOptions,
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const profileOf = (user: Parameters<typeof toProfile>[0]) => ({
    ...toProfile(user),
    retainOriginalsDays: retainOriginalsDays ?? null,
  });

  typed.post(
    '/api/auth/logout',
    {
      schema: {
        tags,
        operationId: 'signOut',
        summary: 'Sign out: the session is revoked',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await signIn.signOut(principalOf(request));
      app.clearSession(reply);
      return reply.code(204).send(null);
    },
  );

  typed.get(
    '/api/auth/me',
    { schema: { tags, operationId: 'getProfile', summary: 'The caller’s profile', response: { 200: Profile } } },
    async (request) => profileOf(principalOf(request).user),
  );

  typed.patch(
    '/api/auth/me',
    {
      schema: {
        tags,
        operationId: 'updateProfile',
        summary: 'Change the display name, or the naming template and model instructions new batches start from',
        body: UpdateProfileBody,
        response: { 200: Profile },
        errors: ['invalid_template'],
      },
    },
    async (request) => profileOf(await account.updateProfile(principalOf(request).user.id, request.body)),
  );

  typed.delete(
    '/api/auth/me',
    {
      schema: {
        tags,
        operationId: 'deleteAccount',
        summary: 'Delete the account with its images and stored objects',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await account.delete(principalOf(request).user.id, request.log);
      app.clearSession(reply);
      return reply.code(204).send(null);
    },
  );

  typed.get(
    '/api/auth/quota',
    {
      schema: {
        tags,
        operationId: 'getQuota',
        summary: 'This month’s quota, what is used and what remains',
        response: { 200: QuotaResponse },
      },
    },
    async (request) => {
      const { user } = principalOf(request);
      return toQuota(user.plan, await account.quota(user.id));
    },
  );
}
