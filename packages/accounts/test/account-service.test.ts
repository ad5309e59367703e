import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createRepositories } from '@renamer/db';
import { createPlatform, parseEnv, serviceEnvSchema } from '@renamer/runtime';
import { testServiceEnv } from '@renamer/runtime/testing';
import { imageObjectKey } from '@renamer/storage';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccountService } from '../src';

const platform = createPlatform(parseEnv(serviceEnvSchema({}), testServiceEnv('accounts')));
const repositories = createRepositories(platform.db.db);
const accounts = createAccountService({
  db: platform.db.db,
  users: repositories.users,
  auditLog: repositories.auditLog,
  store: platform.store,
  announceEnded: async (ended) => {
    announced.push(ended);
  },
});
/** What the service announced to the API instances, as their WebSocket hubs hear it. */
const announced: { userId: string }[] = [];

afterAll(() => platform.close());

/** A logger whose lines the test reads, as an operator reads the service's log. */
function recordingLog() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines };
}

const newUser = (role: 'user' | 'admin' = 'user') =>
  repositories.users.create({
    provider: 'https://idp.test',
    providerSubject: randomUUID(),
    displayName: 'Someone',
    emailHash: randomUUID().replaceAll('-', '').padEnd(64, '0'),
    role,
  });

const auditEntriesBy = async (actorId: string) => (await repositories.auditLog.list({ actorId })).items;

describe('bans', () => {
  it('bans a user and records who did it, to whom and why in the audit log and the log', async () => {
    const [admin, user] = [await newUser('admin'), await newUser()];
    const { log, lines } = recordingLog();

    const banned = await accounts.ban({ actorId: admin.id, userId: user.id, requestId: 'req-1' }, 'spam uploads', log);

    expect(banned).toMatchObject({ id: user.id, banReason: 'spam uploads', bannedAt: expect.any(Date) });
    expect(await auditEntriesBy(admin.id)).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        action: 'user.ban',
        targetType: 'user',
        targetId: user.id,
        details: { reason: 'spam uploads' },
        before: expect.objectContaining({ bannedAt: null, banReason: null }),
        after: expect.objectContaining({ bannedAt: expect.any(String), banReason: 'spam uploads' }),
        requestId: 'req-1',
      }),
    ]);
    expect(announced).toContainEqual({ userId: user.id });
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'user banned', actorId: admin.id, userId: user.id, reason: 'spam uploads' }),
    );
  });

  it('unbans a user, and records that too', async () => {
    const [admin, user] = [await newUser('admin'), await newUser()];
    const { log } = recordingLog();
    await accounts.ban({ actorId: admin.id, userId: user.id, requestId: 'req-1' }, 'mistake', log);

    const unbanned = await accounts.unban({ actorId: admin.id, userId: user.id, requestId: 'req-1' }, log);

    expect(unbanned).toMatchObject({ id: user.id, bannedAt: null, banReason: null });
    expect((await auditEntriesBy(admin.id)).map((entry) => entry.action)).toEqual(['user.unban', 'user.ban']);
  });

  it('answers not_found for a user that does not exist, and records nothing', async () => {
    const admin = await newUser('admin');
    const missing = randomUUID();
    const { log } = recordingLog();
    await expect(
      accounts.ban({ actorId: admin.id, userId: missing, requestId: 'req-1' }, 'x', log),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(accounts.unban({ actorId: admin.id, userId: missing, requestId: 'req-1' }, log)).rejects.toMatchObject(
      {
        code: 'not_found',
      },
    );
    expect(await auditEntriesBy(admin.id)).toEqual([]);
  });

  it('refuses to let an admin ban their own account', async () => {
    const admin = await newUser('admin');
    const { log } = recordingLog();
    await expect(
      accounts.ban({ actorId: admin.id, userId: admin.id, requestId: 'req-1' }, 'oops', log),
    ).rejects.toMatchObject({
      code: 'conflict',
    });
    expect((await repositories.users.findById(admin.id))?.bannedAt).toBeNull();
  });
});

describe('deleting an account', () => {
  it('removes the user and every stored object of theirs, and logs it', async () => {
    const user = await newUser();
    const key = imageObjectKey(user.id, randomUUID());
    await platform.store.put(key, Readable.from([Buffer.from('bytes')]), { size: 5 });
    const { log, lines } = recordingLog();

    await accounts.delete(user.id, log);

    expect(await repositories.users.findById(user.id)).toBeNull();
    expect(await platform.store.stat(key)).toBeNull();
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'account deleted', userId: user.id }));
    await expect(accounts.delete(user.id, log)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('quota', () => {
  it("reports the month's quota with what remains of it", async () => {
    const user = await newUser();
    await repositories.users.reserveQuota(user.id, 7, new Date());
    expect(await accounts.quota(user.id)).toMatchObject({ quota: 50, used: 7, remaining: 43 });
  });
});
