import type { SessionRepository } from '@renamer/db';
import type { Handler } from '@renamer/jobs';

export interface PruneSessionsDeps {
  sessions: Pick<SessionRepository, 'deleteEndedBefore'>;
  now?: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Sessions are kept a while after they end (for audit); after the retention period they go. */
export const pruneSessionsHandler = (deps: PruneSessionsDeps) =>
  ({
    async handle({ retentionDays }, { logger }) {
      const now = deps.now ?? (() => new Date());
      const cutoff = new Date(now().getTime() - retentionDays * DAY_MS);
      const removed = await deps.sessions.deleteEndedBefore(cutoff);
      logger.info({ removed, cutoff }, 'ended sessions pruned');
      return { removed };
    },
  }) satisfies Handler<'prune-sessions'>;
