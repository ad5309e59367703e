import { describe, expect, it } from 'vitest';
import { checkDb, createDb } from '../src';
import { connectTestDb } from './support/database';

describe('database client', () => {
  it('answers the readiness check and closes', async () => {
    const client = connectTestDb(1);
    expect(await checkDb(client)).toBe(true);
    const [row] = await client.sql<{ answer: number }[]>`select 42 as answer`;
    expect(row?.answer).toBe(42);
    await client.close();
  });

  it('reports an unreachable database as not ready instead of throwing', async () => {
    const client = createDb('postgres://postgres@127.0.0.1:1/none', { max: 1 });
    expect(await checkDb(client, 1_000)).toBe(false);
    await client.close();
  });
});
