import { date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Files refused at upload, counted per UTC day and problem code (the files themselves are never stored).
 * One row per day and code, incremented in place, so the table stays small whatever the traffic.
 */
export const uploadRejections = pgTable(
  'upload_rejections',
  {
    day: date('day', { mode: 'string' }).notNull(),
    code: text('code').notNull(),
    count: integer('count').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.code] })],
);
