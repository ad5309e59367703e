import { randomUUID } from 'node:crypto';
import { createDb, createSessionRepository, createUserRepository } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import { createLogger } from '@renamer/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { pruneSessionsHandler } from '../src/handlers/prune-sessions';

const client = createDb(process.env.DATABASE_URL!, { max: 2 });
const sessions = createSessionRepository(client.db);
const users = createUserRepository(client.db);
afterAll(() => client.close());

describe('prune-sessions job', () => {
  it('removes sessions that ended longer ago than the retention period', async () => {
    // A clock far in the past keeps other tests' sessions out of the cutoff.
    const now = new Date('2002-03-01T00:00:00.000Z');
    const user = await users.create({
      provider: 'test',
      providerSubject: randomUUID(),
      displayName: 'Pruned',
      emailHash: emailHash(`${randomUUID()}@prune.test`),
    });
    const old = await sessions.create({ userId: user.id, expiresAt: new Date('2002-01-01T00:00:00.000Z') });
    const recent = await sessions.create({ userId: user.id, expiresAt: new Date('2002-02-20T00:00:00.000Z') });

    const handler = pruneSessionsHandler({ sessions, now: () => now });
    const context = { logger: createLogger('worker-test', process.env.LOG_LEVEL!), finalAttempt: false };
    const result = await handler.handle({ retentionDays: 30 }, context);

    expect(result.removed).toBeGreaterThanOrEqual(1);
    const left = await client.sql<{ id: string }[]>`select id from sessions where user_id = ${user.id}`;
    expect(left.map((row) => row.id)).toEqual([recent.id]);
    expect(left.map((row) => row.id)).not.toContain(old.id);
  });
});
