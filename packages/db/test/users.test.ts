import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createUserRepository, type UserRepository } from '../src';
import { connectTestDb, createTestUser, newestFirst, sha256Hex } from './support/database';

const client = connectTestDb();
const users: UserRepository = createUserRepository(client.db);

afterAll(() => client.close());

function signInProfile() {
  return {
    provider: 'https://idp.test',
    providerSubject: randomUUID(),
    displayName: 'Ada',
    emailHash: sha256Hex('ada@example.test'),
  };
}

describe('user repository', () => {
  it('creates a user with the basic plan, quota 50 and role user', async () => {
    const user = await createTestUser(client);
    expect(user).toMatchObject({ plan: 'basic', quota: 50, role: 'user', bannedAt: null, stripeCustomerId: null });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user.createdAt).toBeInstanceOf(Date);
    expect(user).not.toHaveProperty('usageCount');
    expect(await users.findById(user.id)).toEqual(user);
    expect(await users.findByProviderSubject(user.provider, user.providerSubject)).toEqual(user);
  });

  it('returns null for unknown users', async () => {
    expect(await users.findById(randomUUID())).toBeNull();
    expect(await users.findByProviderSubject('https://idp.test', randomUUID())).toBeNull();
    expect(await users.updateProfile(randomUUID(), { displayName: 'x' })).toBeNull();
    expect(await users.delete(randomUUID())).toBe(false);
  });

  it('rejects an email hash that is not SHA-256 hex', async () => {
    await expect(createTestUser(client, { emailHash: 'someone@example.test' })).rejects.toThrow();
  });

  it('creates on first sign-in, then keeps the chosen name and refreshes the email hash', async () => {
    const profile = signInProfile();
    const first = await users.upsertOnSignIn(profile);
    expect(first.created).toBe(true);
    expect(first.user).toMatchObject({ displayName: 'Ada', plan: 'basic', quota: 50, role: 'user' });

    await users.updateProfile(first.user.id, { displayName: 'Ada L.' });
    const newEmailHash = sha256Hex('ada@new.example.test');
    const second = await users.upsertOnSignIn({ ...profile, displayName: 'Ignored', emailHash: newEmailHash });
    expect(second.created).toBe(false);
    expect(second.user).toMatchObject({ id: first.user.id, displayName: 'Ada L.', emailHash: newEmailHash });
  });

  it('grants admin at sign-in and never demotes', async () => {
    const profile = signInProfile();
    const created = await users.upsertOnSignIn({ ...profile, grantAdmin: true, quota: 75 });
    expect(created.user).toMatchObject({ role: 'admin', quota: 75 });
    const again = await users.upsertOnSignIn(profile);
    expect(again.user.role).toBe('admin');
  });

  it('updates plan, quota and role, and leaves the row alone for an empty update', async () => {
    const user = await createTestUser(client);
    const updated = await users.updateAccount(user.id, {
      plan: 'pro',
      quota: 500,
      role: 'admin',
      stripeCustomerId: `cus_${randomUUID()}`,
    });
    expect(updated).toMatchObject({ plan: 'pro', quota: 500, role: 'admin' });
    expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(user.updatedAt.getTime());
    expect(await users.findByStripeCustomerId(updated!.stripeCustomerId!)).toEqual(updated);
    expect(await users.updateAccount(user.id, {})).toEqual(updated);
  });

  it('bans and unbans', async () => {
    const user = await createTestUser(client);
    const now = new Date('2030-05-01T12:00:00.123Z');
    expect(await users.ban(user.id, 'spam', now)).toMatchObject({ bannedAt: now, banReason: 'spam' });
    expect(await users.unban(user.id)).toMatchObject({ bannedAt: null, banReason: null });
  });

  it('deletes', async () => {
    const user = await createTestUser(client);
    expect(await users.delete(user.id)).toBe(true);
    expect(await users.findById(user.id)).toBeNull();
  });

  it('lists newest first with filters and a cursor', async () => {
    const marker = `Lister ${randomUUID()}`;
    const created = [];
    for (let index = 0; index < 3; index += 1) {
      created.push(await createTestUser(client, { displayName: `${marker} ${index}` }));
    }
    const expected = newestFirst(created).map((user) => user.id);
    const first = await users.list({ search: marker, limit: 2 });
    expect(first.items.map((user) => user.id)).toEqual(expected.slice(0, 2));
    expect(first.nextCursor).not.toBeNull();
    const second = await users.list({ search: marker, limit: 2, cursor: first.nextCursor });
    expect(second.items.map((user) => user.id)).toEqual(expected.slice(2));
    expect(second.nextCursor).toBeNull();

    expect((await users.list({ emailHash: created[1]!.emailHash })).items.map((user) => user.id)).toEqual([
      created[1]!.id,
    ]);
    expect((await users.list({ search: marker, banned: true })).items).toEqual([]);
    expect((await users.list({ search: '%' })).items.every((user) => user.displayName.includes('%'))).toBe(true);
  });
});

describe('quota counter', () => {
  const may = new Date('2031-05-17T10:00:00Z');

  it('reports zero usage and the UTC month for a new user', async () => {
    const user = await createTestUser(client);
    expect(await users.getUsage(user.id, may)).toEqual({
      quota: 50,
      used: 0,
      periodStart: new Date('2031-05-01T00:00:00Z'),
      periodEnd: new Date('2031-06-01T00:00:00Z'),
    });
    expect(await users.getUsage(randomUUID(), may)).toBeNull();
  });

  it('accepts a reservation that reaches the quota exactly and refuses one past it', async () => {
    const user = await createTestUser(client);
    expect(await users.reserveQuota(user.id, 48, may)).toBe(48);
    expect(await users.reserveQuota(user.id, 2, may)).toBe(50);
    expect(await users.reserveQuota(user.id, 1, may)).toBeNull();
    expect((await users.getUsage(user.id, may))?.used).toBe(50);
  });

  it('refuses a single reservation larger than the quota and leaves the counter untouched', async () => {
    const user = await createTestUser(client);
    expect(await users.reserveQuota(user.id, 51, may)).toBeNull();
    expect((await users.getUsage(user.id, may))?.used).toBe(0);
  });

  it('starts counting again in a new month', async () => {
    const user = await createTestUser(client);
    expect(await users.reserveQuota(user.id, 50, may)).toBe(50);
    const june = new Date('2031-06-01T00:00:00Z');
    expect((await users.getUsage(user.id, june))?.used).toBe(0);
    expect(await users.reserveQuota(user.id, 5, june)).toBe(5);
    // A request that read the clock just before midnight counts against the newer month.
    expect(await users.reserveQuota(user.id, 1, new Date('2031-05-31T23:59:59Z'))).toBe(6);
  });

  it('follows a changed quota', async () => {
    const user = await createTestUser(client);
    await users.reserveQuota(user.id, 50, may);
    await users.updateAccount(user.id, { quota: 500 });
    expect(await users.reserveQuota(user.id, 450, may)).toBe(500);
  });

  it('returns null for an unknown user and refuses a negative count', async () => {
    expect(await users.reserveQuota(randomUUID(), 1, may)).toBeNull();
    await expect(users.reserveQuota(randomUUID(), -1, may)).rejects.toThrow(RangeError);
  });

  it('lets exactly quota / n of many concurrent reservations through', async () => {
    const user = await createTestUser(client);
    const wide = connectTestDb(20);
    try {
      const repository = createUserRepository(wide.db);
      const results = await Promise.all(Array.from({ length: 20 }, () => repository.reserveQuota(user.id, 5, may)));
      const granted = results.filter((result) => result !== null);
      expect(granted).toHaveLength(10);
      expect([...granted].sort((a, b) => a - b)).toEqual([5, 10, 15, 20, 25, 30, 35, 40, 45, 50]);
      expect((await users.getUsage(user.id, may))?.used).toBe(50);
    } finally {
      await wide.close();
    }
  });

  it('rolls back with the transaction it ran in', async () => {
    const user = await createTestUser(client);
    await expect(
      client.db.transaction(async (tx) => {
        expect(await users.reserveQuota(user.id, 10, may, tx)).toBe(10);
        throw new Error('upload failed');
      }),
    ).rejects.toThrow('upload failed');
    expect((await users.getUsage(user.id, may))?.used).toBe(0);
  });
});
