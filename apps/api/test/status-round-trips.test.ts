import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateApiKey } from '@renamer/auth';
import { emailHash } from '@renamer/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthStack, browser, startAuthStack } from './support/auth-stack';

let stack: AuthStack;
/** Every statement the API's PostgreSQL client sends, as postgres.js's `debug` option sees it. */
const statements: string[] = [];

beforeAll(async () => {
  stack = await startAuthStack({ name: 'api-status-round-trips' });
  stack.platform.db.sql.options.debug = (_connection: number, query: string) => {
    statements.push(query);
  };
});
afterAll(() => stack?.close());

async function userWithBatch() {
  const { users, apiKeys, batches, images } = stack.repositories;
  const subject = randomUUID();
  const user = await users.create({
    provider: 'https://issuer.test',
    providerSubject: subject,
    displayName: 'Poller',
    emailHash: emailHash(`${subject}@renamer.test`),
    quota: 50,
  });
  const { key, prefix, hash } = generateApiKey();
  await apiKeys.create({ userId: user.id, name: 'poller', prefix, keyHash: hash });
  const batch = await batches.create({ userId: user.id, total: 3 });
  await images.insertMany(
    ['queued', 'queued', 'ready'].map((status, index) => ({
      batchId: batch.id,
      userId: user.id,
      originalFilename: `${index}.jpg`,
      checksum: `${index}`.repeat(64),
      size: 10,
      mimeType: 'image/jpeg',
      storageKey: `${batch.id}/${index}`,
      status: status as 'queued' | 'ready',
    })),
  );
  return { key, keyHash: hash, batchId: batch.id, userId: user.id };
}

const statusOf = (batchId: string, headers: Record<string, string>) =>
  fetch(`${stack.apiUrl}/api/batch/${batchId}/status`, { headers });

/** The statements sent while `act` runs. */
async function statementsDuring(act: () => Promise<void>): Promise<string[]> {
  statements.length = 0;
  await act();
  return [...statements];
}

describe('GET /api/batch/:id/status with an API key', () => {
  it('makes one database round trip: the key, its user and the batch with its counts in one statement', async () => {
    const { key, keyHash, batchId } = await userWithBatch();
    const read = () =>
      fetch(`${stack.apiUrl}/api/batch/${batchId}/status`, { headers: { authorization: `Bearer ${key}` } });
    // The first use records last_used_at, off the request's path; wait until it has.
    expect((await read()).status).toBe(200);
    await expect
      .poll(async () => (await stack.platform.db.sql`select last_used_at from api_keys where key_hash = ${keyHash}`)[0])
      .toMatchObject({ last_used_at: expect.any(String) });

    const sent = await statementsDuring(async () => {
      const response = await read();
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ batchId, total: 3, counts: { queued: 2, ready: 1 } });
    });
    expect(sent, sent.join('\n')).toHaveLength(1);
    expect(sent[0]).toMatch(/"api_keys".*"batches"/s);
  });

  it('refuses a revoked key and a banned user on the very next read', async () => {
    const { key, batchId, userId } = await userWithBatch();
    const auth = { authorization: `Bearer ${key}` };
    expect((await statusOf(batchId, auth)).status).toBe(200);

    await stack.platform.db.sql`update users set banned_at = now(), ban_reason = 'abuse' where id = ${userId}`;
    const banned = await statusOf(batchId, auth);
    expect(banned.status).toBe(403);
    expect(await banned.json()).toMatchObject({ code: 'banned' });

    await stack.platform.db.sql`update users set banned_at = null where id = ${userId}`;
    expect((await statusOf(batchId, auth)).status).toBe(200);
    await stack.platform.db.sql`update api_keys set revoked_at = now() where user_id = ${userId}`;
    const revoked = await statusOf(batchId, auth);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('answers a malformed batch id with 400, the key still checked first', async () => {
    const { key } = await userWithBatch();
    const malformed = await statusOf('not-a-uuid', { authorization: `Bearer ${key}` });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await statusOf('not-a-uuid', { authorization: 'Bearer rn_wrong' })).status).toBe(401);
  });

  it("still answers 404 for another user's batch", async () => {
    const { batchId } = await userWithBatch();
    const { key } = await userWithBatch();
    const response = await fetch(`${stack.apiUrl}/api/batch/${batchId}/status`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(404);
  });
});

describe('GET /api/batch/:id/status with a session', () => {
  it('reads the session, its user and the batch in one statement too', async () => {
    const { jar } = await stack.signIn(`${randomUUID()}@renamer.test`, 'Browser');
    const client = browser(stack.apiUrl, jar);
    const me = (await (await client.fetch('/api/auth/me')).json()) as { id: string };
    const batch = await stack.repositories.batches.create({ userId: me.id, total: 0 });

    const sent = await statementsDuring(async () => {
      const response = await client.fetch(`/api/batch/${batch.id}/status`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ batchId: batch.id, total: 0, status: 'queued' });
    });
    expect(sent, sent.join('\n')).toHaveLength(1);
    expect(sent[0]).toMatch(/"sessions".*"batches"/s);

    const { batchId: someoneElses } = await userWithBatch();
    expect((await client.fetch(`/api/batch/${someoneElses}/status`)).status).toBe(404);
  });
});

describe('the credential code', () => {
  it('knows nothing of batches: the status read is joined on by the batches repository, through a hook that names no resource', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const auth = join(root, 'packages/auth/src');
    const files = [
      ...readdirSync(auth, { recursive: true, encoding: 'utf8' })
        .filter((path) => path.endsWith('.ts'))
        .map((path) => join(auth, path)),
      join(root, 'packages/db/src/repositories/api-keys.ts'),
      join(root, 'packages/db/src/repositories/sessions.ts'),
    ];
    const naming = files.filter((path) => /batch/i.test(readFileSync(path, 'utf8')));
    expect(naming).toEqual([]);
  });
});
