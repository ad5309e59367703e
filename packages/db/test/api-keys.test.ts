import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiKeyRepository } from '../src';
import { connectTestDb, createTestUser, sha256Hex } from './support/database';

const client = connectTestDb();
const apiKeys = createApiKeyRepository(client.db);
const now = new Date('2031-01-10T12:00:00.000Z');

afterAll(() => client.close());

function keyInput(userId: string, overrides: { expiresAt?: Date | null } = {}) {
  const key = `rk_${randomUUID()}`;
  return { userId, name: 'ci', prefix: key.slice(0, 8), keyHash: sha256Hex(key), ...overrides };
}

describe('API key repository', () => {
  it('creates a key without exposing its hash and finds it active by hash with its user', async () => {
    const user = await createTestUser(client);
    const input = keyInput(user.id);
    const apiKey = await apiKeys.create(input);
    expect(apiKey).toMatchObject({ userId: user.id, name: 'ci', prefix: input.prefix, expiresAt: null });
    expect(apiKey).not.toHaveProperty('keyHash');
    expect(await apiKeys.findActiveByHash(input.keyHash, now)).toEqual({ apiKey, user });
  });

  it('refuses a second key with the same hash', async () => {
    const user = await createTestUser(client);
    const input = keyInput(user.id);
    await apiKeys.create(input);
    await expect(apiKeys.create(input)).rejects.toThrow();
  });

  it('does not find an expired or unknown key', async () => {
    const user = await createTestUser(client);
    const expired = keyInput(user.id, { expiresAt: now });
    await apiKeys.create(expired);
    expect(await apiKeys.findActiveByHash(expired.keyHash, now)).toBeNull();
    expect(await apiKeys.findActiveByHash(sha256Hex('unknown'), now)).toBeNull();
    const later = keyInput(user.id, { expiresAt: new Date(now.getTime() + 1) });
    await apiKeys.create(later);
    expect(await apiKeys.findActiveByHash(later.keyHash, now)).not.toBeNull();
  });

  it('records use at most once a minute', async () => {
    const user = await createTestUser(client);
    const input = keyInput(user.id);
    const apiKey = await apiKeys.create(input);
    await apiKeys.touchLastUsed(apiKey.id, now);
    await apiKeys.touchLastUsed(apiKey.id, new Date(now.getTime() + 30_000));
    expect((await apiKeys.findActiveByHash(input.keyHash, now))?.apiKey.lastUsedAt).toEqual(now);
    const later = new Date(now.getTime() + 61_000);
    await apiKeys.touchLastUsed(apiKey.id, later);
    expect((await apiKeys.findActiveByHash(input.keyHash, now))?.apiKey.lastUsedAt).toEqual(later);
  });

  it('lists a user’s keys newest first and deletes only the owner’s key', async () => {
    const [user, other] = await Promise.all([createTestUser(client), createTestUser(client)]);
    const first = await apiKeys.create(keyInput(user.id));
    const second = await apiKeys.create(keyInput(user.id));
    await apiKeys.create(keyInput(other.id));
    const listed = await apiKeys.list(user.id);
    expect(new Set(listed.map((key) => key.id))).toEqual(new Set([first.id, second.id]));
    expect(listed[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(listed[1]!.createdAt.getTime());

    expect(await apiKeys.delete(first.id, other.id)).toBe(false);
    expect(await apiKeys.delete(first.id, user.id)).toBe(true);
    expect((await apiKeys.list(user.id)).map((key) => key.id)).toEqual([second.id]);
  });
});
