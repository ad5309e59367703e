import postgres from 'postgres';

/** The same server, another database: keeps credentials, host and query parameters (sslmode …). */
function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = postgres(databaseUrl(serverUrl, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

/** Creates the database `name` on the server of `serverUrl` unless it exists, and returns its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  await onServer(serverUrl, `create database ${name}`).catch((error: { code?: string }) => {
    if (error.code !== '42P04') throw error; // it exists already
  });
  return databaseUrl(serverUrl, name);
}

export function dropDatabase(serverUrl: string, name: string): Promise<void> {
  return onServer(serverUrl, `drop database if exists ${name} with (force)`);
}
