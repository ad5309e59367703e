import { sql } from 'drizzle-orm';
import { timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Millisecond precision matches JavaScript dates, so a timestamp read from a row and sent back
 * (in a pagination cursor, say) compares equal to the stored value.
 */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

export const id = () => uuid('id').primaryKey().default(sql`gen_random_uuid()`);

export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

/** Kept current by the `set_updated_at` trigger (see the custom migration), whoever writes the row. */
export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow();
