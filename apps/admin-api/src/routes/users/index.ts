import {
  AdminUser,
  AdminUserDetail,
  AdminUserList,
  AdminUserListQuery,
  BanUserBody,
  IdParams,
  UpdateUserBody,
} from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { UserService } from '../../services/users';
import { actorOf } from '../actor';

/** Other users' accounts. Each change is written to the audit log, before and after, with the admin who made it. */
export async function userRoutes(app: FastifyInstance, { users }: { users: UserService }) {
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
    async (request) => users.list(request.query),
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
    async (request) => users.detail(request.params.id),
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
    async (request) => users.update(actorOf(request), request.params.id, request.body, request.log),
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
    async (request) => users.ban(actorOf(request), request.params.id, request.body.reason, request.log),
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
    async (request) => users.unban(actorOf(request), request.params.id, request.log),
  );
}
