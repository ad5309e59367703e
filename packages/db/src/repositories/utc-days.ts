import { type SQL, sql } from 'drizzle-orm';

/**
 * A `days` common table expression: every UTC day the range `[from, to)` touches, one row each (column `day`), so
 * a per-day series has its zeros too. Begins a `with` clause; callers add their own `, name as (…)` after it.
 */
export const utcDays = (from: string, to: string): SQL => sql`
  with days as (
    select generate_series(
      date_trunc('day', ${from}::timestamptz at time zone 'UTC'),
      (${to}::timestamptz - interval '1 millisecond') at time zone 'UTC',
      interval '1 day'
    ) as day
  )`;
