import type { AccountService } from '@renamer/accounts';
import { principalOf } from '@renamer/auth';
import { AdminUser, BanUserBody, IdParams } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toAdminUser } from '../../presenters';

export interface UserRoutesOptions {
  accounts: Pick<AccountService, 'ban' | 'unban'>;
}

/** Other users' accounts. Each change is written to the audit log with the admin who made it. */
export async function userRoutes(app: FastifyInstance, { accounts }: UserRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  typed.post(
    '/api/admin/users/:id/ban',
    {
      schema: {
        tags,
        operationId: 'banUser',
        summary: 'Ban a user: their sessions and API keys answer 403 `banned` from their next request',
        params: IdParams,
        body: BanUserBody,
        response: { 200: AdminUser },
        errors: ['conflict'],
      },
    },
    async (request) => {
      const action = { actorId: principalOf(request).user.id, userId: request.params.id };
      return toAdminUser(await accounts.ban(action, request.body.reason, request.log));
    },
  );

  typed.post(
    '/api/admin/users/:id/unban',
    {
      schema: {
        tags,
        operationId: 'unbanUser',
        summary: 'Lift a ban: the user’s sessions and API keys work again',
        params: IdParams,
        response: { 200: AdminUser },
      },
    },
    async (request) => {
      const action = { actorId: principalOf(request).user.id, userId: request.params.id };
      return toAdminUser(await accounts.unban(action, request.log));
    },
  );
}
