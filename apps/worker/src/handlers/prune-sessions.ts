import { defineHandler } from '@renamer/queue';

export interface PruneSessionsDeps {
  /** Deletes sessions that expired or were revoked before `cutoff`; returns how many. */
  deleteSessionsEndedBefore(cutoff: Date): Promise<number>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Sessions are kept a while after they end (for audit); after the retention period they go. */
export const pruneSessionsHandler = (deps: PruneSessionsDeps, now: () => Date = () => new Date()) =>
  defineHandler({
    name: 'prune-sessions',
    handle: async ({ retentionDays }) => {
      const cutoff = new Date(now().getTime() - retentionDays * DAY_MS);
      return { removed: await deps.deleteSessionsEndedBefore(cutoff) };
    },
  });
