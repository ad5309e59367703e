import { AppError, type CleanupResult } from '@renamer/contracts';
import type { AuditLogRepository } from '@renamer/db';
import { type CleanupTasks, isCleanupTask } from '@renamer/jobs';
import { type Actor, entryBy } from './audit';

export interface CleanupServiceDeps {
  tasks: Pick<CleanupTasks, 'run' | 'available'>;
  auditLog: Pick<AuditLogRepository, 'append'>;
}

/**
 * The maintenance tasks, on demand; the worker runs the same on its schedule. A task works through the store
 * and the database in pages, not in one transaction: the audit entry is written once it has run.
 */
export function createCleanupService({ tasks, auditLog }: CleanupServiceDeps) {
  return {
    async run(actor: Actor, task: string, options: { dryRun: boolean }): Promise<CleanupResult> {
      if (!isCleanupTask(task)) {
        throw new AppError(
          'not_found',
          `There is no cleanup task ${task}; the tasks are ${tasks.available.join(', ')}.`,
        );
      }
      if (!tasks.available.includes(task)) {
        throw new AppError(
          'not_found',
          `The ${task} task runs only when RETAIN_ORIGINALS_DAYS is set; the tasks are ${tasks.available.join(', ')}.`,
        );
      }
      const result = await tasks.run(task, options);
      if (!result.dryRun) {
        await auditLog.append(
          entryBy(actor, { action: `cleanup.${task}`, targetType: 'cleanup', targetId: task, details: result }),
        );
      }
      return result;
    },
  };
}

export type CleanupService = ReturnType<typeof createCleanupService>;
