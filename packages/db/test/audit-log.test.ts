import { afterAll, describe, expect, it } from 'vitest';
import { createAuditLogRepository } from '../src';
import { connectTestDb, createTestUser, newestFirst } from './support/database';

const client = connectTestDb();
const auditLog = createAuditLogRepository(client.db);

afterAll(() => client.close());

describe('audit log repository', () => {
  it('appends entries and lists them newest first, paged', async () => {
    const admin = await createTestUser(client, { role: 'admin' });
    const appended = [];
    for (const action of ['user.ban', 'user.unban', 'feature_flag.update']) {
      appended.push(
        await auditLog.append({ actorId: admin.id, action, targetType: 'user', targetId: admin.id, details: { n: 1 } }),
      );
    }
    expect(appended[0]).toMatchObject({ actorId: admin.id, action: 'user.ban', details: { n: 1 } });

    const first = await auditLog.list({ actorId: admin.id, limit: 2 });
    const second = await auditLog.list({ actorId: admin.id, limit: 2, cursor: first.nextCursor });
    expect([...first.items, ...second.items]).toEqual(newestFirst(appended));
    expect(second.nextCursor).toBeNull();

    const bans = await auditLog.list({ actorId: admin.id, action: 'user.ban' });
    expect(bans.items.map((entry) => entry.id)).toEqual([appended[0]!.id]);
  });

  it('defaults details to an empty object', async () => {
    const entry = await auditLog.append({ actorId: null, action: 'cleanup.expired-downloads' });
    expect(entry).toMatchObject({ actorId: null, details: {}, targetType: null, targetId: null });
  });
});
