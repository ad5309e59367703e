import type { CleanupTasks, Handler } from '@renamer/jobs';

/** One cleanup task, run by its schedule; what it removed goes to the log. */
export const cleanupHandler = (tasks: Pick<CleanupTasks, 'run'>) =>
  ({
    async handle({ task }, { logger }) {
      const result = await tasks.run(task, { dryRun: false });
      if (result.removed > 0) logger.info(result, 'cleanup task removed what it should');
      return result;
    },
  }) satisfies Handler<'cleanup'>;
