import { LogEntry, type LogQuery, SHIPPED_LOG_LEVELS } from '@renamer/contracts';
import { parseJsonOrUndefined } from '@renamer/runtime';
import type { Redis } from 'ioredis';
import type { z } from 'zod';

export interface LogServiceDeps {
  redis: Pick<Redis, 'xrevrange'>;
  /** The stream the services ship their warnings and errors to (`logStreamKey`). */
  streamKey: string;
}

/** Entries read from the stream per round trip, newest first, until enough match. */
const READ_PAGE = 500;

/** Recent warnings and errors of every service, newest first. */
export function createLogService({ redis, streamKey }: LogServiceDeps) {
  return {
    async recent({ level, service, requestId, since, limit }: z.output<typeof LogQuery>) {
      const levels = new Set(level ? SHIPPED_LOG_LEVELS.slice(SHIPPED_LOG_LEVELS.indexOf(level)) : SHIPPED_LOG_LEVELS);
      const matches = (entry: LogEntry) =>
        levels.has(entry.level as (typeof SHIPPED_LOG_LEVELS)[number]) &&
        (!service || entry.service === service) &&
        (!requestId || entry.requestId === requestId);
      const oldest = since ? `${new Date(since).getTime()}-0` : '-';
      const items: LogEntry[] = [];
      let newest = '+';
      // The stream is capped (LOG_STREAM_MAX_ENTRIES), so this reads at most that many entries.
      while (items.length < limit) {
        const page = await redis.xrevrange(streamKey, newest, oldest, 'COUNT', READ_PAGE);
        for (const [id, fields] of page) {
          const parsed = LogEntry.safeParse({ id, ...(parseJsonOrUndefined(fields[1] ?? '') as object) });
          if (parsed.success && matches(parsed.data)) items.push(parsed.data);
          if (items.length === limit) break;
        }
        if (page.length < READ_PAGE) break;
        newest = `(${page.at(-1)![0]}`;
      }
      return { items };
    },
  };
}

export type LogService = ReturnType<typeof createLogService>;
