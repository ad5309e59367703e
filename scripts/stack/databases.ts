import postgres from 'postgres';

export type ProbeResult = { ok: true } | { ok: false; refused: boolean; reason: string };

function connect(url: string) {
  return postgres(url, { max: 1, connect_timeout: 3, idle_timeout: 1, onnotice: () => {} });
}

async function withConnection<T>(url: string, use: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = connect(url);
  try {
    return await use(sql);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

/** Does a PostgreSQL answer at `url` and let us in? `refused` tells "nobody listens" from other failures. */
export async function probePostgres(url: string): Promise<ProbeResult> {
  try {
    await withConnection(url, (sql) => sql`select 1`);
    return { ok: true };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return { ok: false, refused: code === 'ECONNREFUSED', reason: message };
  }
}

/** The same server, another database: keeps credentials, host and query parameters (sslmode…). */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

export function createDatabase(serverUrl: string, name: string): Promise<void> {
  return withConnection(serverUrl, async (sql) => {
    await sql`create database ${sql(name)}`;
  });
}

export async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  await withConnection(serverUrl, async (sql) => {
    const [found] = await sql`select 1 from pg_database where datname = ${name}`;
    if (found) return;
    // Another stack may create it between our look and our create: that is fine too.
    await sql`create database ${sql(name)}`.catch((error: { code?: string }) => {
      if (error.code !== '42P04') throw error;
    });
  });
}

export function dropDatabase(serverUrl: string, name: string): Promise<void> {
  return withConnection(serverUrl, async (sql) => {
    await sql`drop database if exists ${sql(name)} with (force)`;
  });
}
