import type { AccountService } from '@renamer/accounts';
import { principalOf } from '@renamer/auth';
import { toPaymentView } from '@renamer/billing';
import {
  AdminUser,
  AdminUserDetail,
  AdminUserList,
  AdminUserListQuery,
  AppError,
  BanUserBody,
  IdParams,
  UpdateUserBody,
} from '@renamer/contracts';
import type { PaymentRepository, UserListParams, UserRepository } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toAdminUser } from '../../presenters';

export interface UserRoutesOptions {
  accounts: Pick<AccountService, 'ban' | 'unban' | 'update' | 'quota'>;
  users: Pick<UserRepository, 'list' | 'findById' | 'holdings'>;
  payments: Pick<PaymentRepository, 'listForUser'>;
}

const noSuchUser = () => new AppError('not_found', 'There is no user with this id.');

/** What `q` is: an id, an email (looked up by its hash, as emails are never stored), or part of a name. */
function searchOf(q: string | undefined): Pick<UserListParams, 'id' | 'emailHash' | 'search'> {
  if (!q) return {};
  if (z.uuid().safeParse(q).success) return { id: q.toLowerCase() };
  if (q.includes('@')) return { emailHash: emailHash(q) };
  return { search: q };
}

/** The admin acting, on whom, in which request: what the audit log records of each change. */
const actionOf = (request: FastifyRequest, userId: string) => ({
  actorId: principalOf(request).user.id,
  userId,
  requestId: request.id,
});

/** Other users' accounts. Each change is written to the audit log, before and after, with the admin who made it. */
export async function userRoutes(app: FastifyInstance, { accounts, users, payments }: UserRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  typed.get(
    '/api/admin/users',
    {
      schema: {
        tags,
        operationId: 'listUsers',
        summary: 'Search users by id, email or name, newest first',
        querystring: AdminUserListQuery,
        response: { 200: AdminUserList },
        errors: ['invalid_cursor'],
      },
    },
    async (request) => {
      const { q, ...filters } = request.query;
      const page = await users.list({ ...filters, ...searchOf(q) });
      return { items: page.items.map(toAdminUser), nextCursor: page.nextCursor };
    },
  );

  typed.get(
    '/api/admin/users/:id',
    {
      schema: {
        tags,
        operationId: 'getUser',
        summary: 'A user with this month’s usage, their batches, sessions, API keys and latest payments',
        params: IdParams,
        response: { 200: AdminUserDetail },
      },
    },
    async (request) => {
      const { id } = request.params;
      const [user, holdings, latest] = await Promise.all([
        users.findById(id),
        users.holdings(id, new Date()),
        payments.listForUser(id, { limit: 10 }),
      ]);
      if (!user || !holdings) throw noSuchUser();
      const { quota, used, remaining, periodStart, periodEnd } = await accounts.quota(id);
      return {
        ...toAdminUser(user),
        usage: { quota, used, remaining, periodStart: periodStart.toISOString(), periodEnd: periodEnd.toISOString() },
        ...holdings,
        payments: latest.items.map(toPaymentView),
      };
    },
  );

  typed.patch(
    '/api/admin/users/:id',
    {
      schema: {
        tags,
        operationId: 'updateUser',
        summary: 'Change a user’s plan, quota or role',
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: AdminUser },
        errors: ['conflict'],
      },
    },
    async (request) =>
      toAdminUser(await accounts.update(actionOf(request, request.params.id), request.body, request.log)),
  );

  typed.post(
    '/api/admin/users/:id/ban',
    {
      schema: {
        tags,
        operationId: 'banUser',
        summary: 'Ban a user: their sessions and API keys answer 403 `banned`, their WebSockets close at once',
        params: IdParams,
        body: BanUserBody,
        response: { 200: AdminUser },
        errors: ['conflict'],
      },
    },
    async (request) =>
      toAdminUser(await accounts.ban(actionOf(request, request.params.id), request.body.reason, request.log)),
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
    async (request) => toAdminUser(await accounts.unban(actionOf(request, request.params.id), request.log)),
  );
}
