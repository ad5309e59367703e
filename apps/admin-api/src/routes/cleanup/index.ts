import { AppError, CLEANUP_TASKS, CleanupParams, CleanupQuery, CleanupResult } from '@renamer/contracts';
import type { AuditLogRepository } from '@renamer/db';
import { type CleanupTasks, isCleanupTask } from '@renamer/jobs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAdminAction } from '../../audit';

export interface CleanupRoutesOptions {
  tasks: Pick<CleanupTasks, 'run'>;
  auditLog: Pick<AuditLogRepository, 'append'>;
}

/** The maintenance tasks, on demand; the worker runs the same on its schedule. */
export async function cleanupRoutes(app: FastifyInstance, { tasks, auditLog }: CleanupRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/admin/cleanup/:task',
    {
      schema: {
        tags: ['cleanup'],
        operationId: 'runCleanup',
        summary: `Run a cleanup task (${CLEANUP_TASKS.join(', ')}); with dryRun=true only count`,
        params: CleanupParams,
        querystring: CleanupQuery,
        response: { 200: CleanupResult },
      },
    },
    async (request) => {
      const { task } = request.params;
      if (!isCleanupTask(task)) {
        throw new AppError('not_found', `There is no cleanup task ${task}; the tasks are ${CLEANUP_TASKS.join(', ')}.`);
      }
      const result = await tasks.run(task, { dryRun: request.query.dryRun });
      if (!result.dryRun) {
        await recordAdminAction(auditLog, request, {
          action: `cleanup.${task}`,
          targetType: 'cleanup',
          targetId: task,
          details: result,
        });
      }
      return result;
    },
  );
}
