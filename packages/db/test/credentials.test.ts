import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createApiKeyRepository,
  createCredentialRepository,
  createSessionRepository,
  createUserRepository,
} from '../src';
import { connectTestDb, createTestUser, sha256Hex } from './support/database';

const client = connectTestDb();
const credentials = createCredentialRepository(client.db);
const sessions = createSessionRepository(client.db);
const apiKeys = createApiKeyRepository(client.db);
const users = createUserRepository(client.db);
const now = new Date('2031-01-10T12:00:00.000Z');
const tomorrow = new Date('2031-01-11T12:00:00.000Z');

afterAll(() => client.close());

const newKey = (userId: string, expiresAt: Date | null = null) => {
  const key = `rk_${randomUUID()}`;
  return apiKeys.create({ userId, name: 'ci', prefix: key.slice(0, 8), keyHash: sha256Hex(key), expiresAt });
};

describe('credential repository', () => {
  it('keeps, in one call, the sessions and API keys still active whose user is not banned', async () => {
    const user = await createTestUser(client);
    const bannedUser = await createTestUser(client);
    const active = await sessions.create({ userId: user.id, expiresAt: tomorrow });
    const expired = await sessions.create({ userId: user.id, expiresAt: now });
    const revoked = await sessions.create({ userId: user.id, expiresAt: tomorrow });
    await sessions.revoke(revoked.id, now);
    const ofBanned = await sessions.create({ userId: bannedUser.id, expiresAt: tomorrow });
    const key = await newKey(user.id);
    const expiredKey = await newKey(user.id, now);
    const bannedKey = await newKey(bannedUser.id);
    await users.ban(bannedUser.id, 'abuse', now);

    const valid = await credentials.stillActive(
      {
        sessionIds: [active.id, expired.id, revoked.id, ofBanned.id, randomUUID()],
        apiKeyIds: [key.id, expiredKey.id, bannedKey.id, randomUUID()],
      },
      now,
    );
    expect([...valid].sort()).toEqual([active.id, key.id].sort());
  });

  it('answers an empty set for no ids', async () => {
    expect(await credentials.stillActive({ sessionIds: [], apiKeyIds: [] }, now)).toEqual(new Set());
  });
});
