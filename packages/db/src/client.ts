import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';

export type Database = PostgresJsDatabase;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** What a repository method runs its statements on: the pool, or a transaction the caller opened. */
export type Executor = Database | Transaction;

export interface DbClient {
  db: Database;
  /** The postgres-js client. Drizzle makes it return date and timestamp columns as strings in raw queries. */
  sql: postgres.Sql;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** Pool size (default 10). */
  max?: number;
  /** Wraps the postgres.js client before drizzle gets it (a span per statement while the service traces). */
  wrapClient?: (client: postgres.Sql) => postgres.Sql;
}

/** Seconds to wait for a connection to PostgreSQL before the query fails. */
const CONNECT_TIMEOUT_S = 5;

export function createDb(databaseUrl: string, options: CreateDbOptions = {}): DbClient {
  const client = postgres(databaseUrl, {
    max: options.max ?? 10,
    onnotice: () => {},
    // A database that does not answer fails a request in seconds (503 unavailable), not after postgres.js's 30.
    connect_timeout: CONNECT_TIMEOUT_S,
  });
  const sql = options.wrapClient?.(client) ?? client;
  const db = drizzle(sql);
  return {
    db,
    sql,
    close: () => sql.end({ timeout: 5 }),
  };
}

/** Readiness probe: true when the database answers `select 1` within the timeout. */
export async function checkDb(client: Pick<DbClient, 'sql'>, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = client.sql`select 1`.then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
