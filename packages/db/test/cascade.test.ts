import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createRepositories } from '../src';
import { connectTestDb, createTestUser, sha256Hex } from './support/database';
import { activeSubscription, imageInput } from './support/fixtures';

const client = connectTestDb();
const repositories = createRepositories(client.db);
const later = new Date('2999-01-01T00:00:00.000Z');

afterAll(() => client.close());

describe('deleting a user', () => {
  it('removes what the user owns and keeps payments and audit entries without the link', async () => {
    const user = await createTestUser(client);
    const session = await repositories.sessions.create({ userId: user.id, expiresAt: later });
    const keyHash = sha256Hex(randomUUID());
    await repositories.apiKeys.create({ userId: user.id, name: 'k', prefix: 'rk_1', keyHash });
    const batch = await repositories.batches.create({ userId: user.id, total: 1 });
    const [image] = await repositories.images.insertMany([imageInput(batch.id, user.id)]);
    await repositories.filenameHistory.append({
      imageId: image!.id,
      oldFilename: null,
      newFilename: 'a-b-c.jpg',
      source: 'proposal',
      by: null,
    });
    const download = await repositories.downloads.create({
      kind: 'zip',
      userId: user.id,
      batchId: batch.id,
      expiresAt: later,
    });
    await repositories.subscriptions.upsertForUser(activeSubscription(user.id));
    const payment = await repositories.payments.create({ userId: user.id, amount: 900, currency: 'usd' });
    const audit = await repositories.auditLog.append({ actorId: user.id, action: 'user.update' });

    expect(await repositories.users.delete(user.id)).toBe(true);

    expect(await repositories.sessions.findActive(session.id, new Date())).toBeNull();
    expect(await repositories.apiKeys.findActiveByHash(keyHash, new Date())).toBeNull();
    expect(await repositories.batches.findById(batch.id)).toBeNull();
    expect(await repositories.images.findById(image!.id)).toBeNull();
    expect(await repositories.filenameHistory.listForImage(image!.id)).toEqual([]);
    expect(await repositories.downloads.findById(download.id)).toBeNull();
    expect(await repositories.subscriptions.findByUserId(user.id)).toBeNull();

    expect(await repositories.payments.findById(payment.id)).toMatchObject({ userId: null, amount: 900 });
    const [kept] = (await repositories.auditLog.list({ action: 'user.update', limit: 100 })).items.filter(
      (entry) => entry.id === audit.id,
    );
    expect(kept).toMatchObject({ actorId: null, action: 'user.update' });
  });

  it('deleting a batch removes its images and keeps their downloads’ records, which no longer name them', async () => {
    const user = await createTestUser(client);
    const batch = await repositories.batches.create({ userId: user.id, total: 1 });
    const [image] = await repositories.images.insertMany([imageInput(batch.id, user.id)]);
    const download = await repositories.downloads.create({
      kind: 'image',
      userId: user.id,
      imageId: image!.id,
      batchId: batch.id,
      expiresAt: later,
    });
    const archive = await repositories.downloads.create({
      kind: 'zip',
      userId: user.id,
      batchId: batch.id,
      expiresAt: later,
    });
    expect(await repositories.batches.delete(batch.id, user.id)).toBe(true);
    expect(await repositories.images.findById(image!.id)).toBeNull();
    expect(await repositories.downloads.findById(download.id)).toMatchObject({ imageId: null, batchId: null });
    expect(await repositories.downloads.findById(archive.id)).toMatchObject({ kind: 'zip', batchId: null });
  });
});
