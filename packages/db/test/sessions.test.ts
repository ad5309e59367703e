import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createSessionRepository, createUserRepository } from '../src';
import { connectTestDb, createTestUser } from './support/database';

const client = connectTestDb();
const sessions = createSessionRepository(client.db);
const now = new Date('2031-01-10T12:00:00.000Z');
const tomorrow = new Date('2031-01-11T12:00:00.000Z');

afterAll(() => client.close());

describe('session repository', () => {
  it('creates a session and finds it active with its user', async () => {
    const user = await createTestUser(client);
    const session = await sessions.create({
      userId: user.id,
      expiresAt: tomorrow,
      userAgent: 'vitest',
      ip: '192.0.2.7',
    });
    expect(session).toMatchObject({ userId: user.id, expiresAt: tomorrow, revokedAt: null, ip: '192.0.2.7' });
    expect(await sessions.findActive(session.id, now)).toEqual({ session, user });
  });

  it('does not find an expired, revoked or unknown session', async () => {
    const user = await createTestUser(client);
    const expired = await sessions.create({ userId: user.id, expiresAt: now });
    expect(await sessions.findActive(expired.id, now)).toBeNull();

    const revoked = await sessions.create({ userId: user.id, expiresAt: tomorrow });
    expect(await sessions.revoke(revoked.id, now)).toBe(true);
    expect(await sessions.revoke(revoked.id, now)).toBe(false);
    expect(await sessions.findActive(revoked.id, now)).toBeNull();

    expect(await sessions.findActive(randomUUID(), now)).toBeNull();
  });

  it('reports a ban through the returned user', async () => {
    const user = await createTestUser(client);
    const session = await sessions.create({ userId: user.id, expiresAt: tomorrow });
    await createUserRepository(client.db).ban(user.id, 'abuse', now);
    expect((await sessions.findActive(session.id, now))?.user.bannedAt).toEqual(now);
  });

  it('revokes all sessions of one user only', async () => {
    const [user, other] = await Promise.all([createTestUser(client), createTestUser(client)]);
    await sessions.create({ userId: user.id, expiresAt: tomorrow });
    await sessions.create({ userId: user.id, expiresAt: tomorrow });
    const kept = await sessions.create({ userId: other.id, expiresAt: tomorrow });
    expect(await sessions.revokeAllForUser(user.id, now)).toBe(2);
    expect(await sessions.revokeAllForUser(user.id, now)).toBe(0);
    expect(await sessions.findActive(kept.id, now)).not.toBeNull();
  });

  it('records when the session was last seen', async () => {
    const user = await createTestUser(client);
    const session = await sessions.create({ userId: user.id, expiresAt: tomorrow });
    await sessions.touch(session.id, now);
    expect((await sessions.findActive(session.id, now))?.session.lastSeenAt).toEqual(now);
  });
});

describe('pruning ended sessions', () => {
  // Dates far in the past, so no other test's sessions fall before the cutoff.
  const cutoff = new Date('2001-06-01T00:00:00.000Z');

  it('deletes sessions that expired or were revoked before the cutoff, and keeps the rest', async () => {
    const user = await createTestUser(client);
    const longExpired = await sessions.create({ userId: user.id, expiresAt: new Date('2001-05-01T00:00:00.000Z') });
    const longRevoked = await sessions.create({ userId: user.id, expiresAt: tomorrow });
    await sessions.revoke(longRevoked.id, new Date('2001-05-15T00:00:00.000Z'));
    const recentlyExpired = await sessions.create({ userId: user.id, expiresAt: new Date('2001-06-15T00:00:00.000Z') });
    const active = await sessions.create({ userId: user.id, expiresAt: tomorrow });

    expect(await sessions.deleteEndedBefore(cutoff)).toBeGreaterThanOrEqual(2);

    const remaining = await client.sql<{ id: string }[]>`select id from sessions where user_id = ${user.id}`;
    expect(remaining.map((row) => row.id).sort()).toEqual([recentlyExpired.id, active.id].sort());
    expect(remaining.map((row) => row.id)).not.toContain(longExpired.id);
  });
});
