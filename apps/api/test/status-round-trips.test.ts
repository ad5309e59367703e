import { randomUUID } from 'node:crypto';
import { generateApiKey } from '@renamer/auth';
import { emailHash } from '@renamer/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthStack, startAuthStack } from './support/auth-stack';

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
  return { key, keyHash: hash, batchId: batch.id };
}

describe('GET /api/batch/:id/status with an API key', () => {
  it('makes at most two database round trips: the key with its user, and the batch with its counts', async () => {
    const { key, keyHash, batchId } = await userWithBatch();
    const read = () =>
      fetch(`${stack.apiUrl}/api/batch/${batchId}/status`, { headers: { authorization: `Bearer ${key}` } });
    // The first use records last_used_at, off the request's path; wait until it has.
    expect((await read()).status).toBe(200);
    await expect
      .poll(async () => (await stack.platform.db.sql`select last_used_at from api_keys where key_hash = ${keyHash}`)[0])
      .toMatchObject({ last_used_at: expect.any(String) });

    statements.length = 0;
    const response = await read();
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ batchId, total: 3, counts: { queued: 2, ready: 1 } });
    // More than none: a capture that saw nothing would pass the bound without proving it.
    expect(statements.length, statements.join('\n')).toBeGreaterThan(0);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(2);
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
