import { fileURLToPath } from 'node:url';
import { photo, upload, waitForBatch } from '@renamer/api/testing';
import { freePort, type SpawnedService, spawnService, waitForStatus } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminStack, signedIn, startAdminStack, userWithApiKey } from './support/admin-stack';

/**
 * Quota follows fault, end to end: uploads through the API, the real worker in a process of its own failing an
 * image whose stored object is gone (the service's fault, after every retry), the person's quota as the API shows
 * and checks it, and the credit on the admin API's view of the user.
 */

const WORKER_ENTRY = fileURLToPath(new URL('../../worker/src/server.ts', import.meta.url));
const ADMIN_EMAIL = 'ops-credits@renamer.test';
let stack: AdminStack;
let worker: SpawnedService | undefined;

beforeAll(async () => {
  // A database of its own: the worker acts on every queued image it finds.
  stack = await startAdminStack({ name: 'quota-credits', adminEmails: ADMIN_EMAIL, isolatedDatabase: true });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await stack?.close();
});

async function startWorker() {
  const port = await freePort();
  worker = spawnService(WORKER_ENTRY, { ...stack.serviceEnv, WORKER_PORT: String(port) });
  await waitForStatus(worker, `http://127.0.0.1:${port}/health/ready`, 200, 40_000);
}

/** A signed-in person with an API key and this monthly quota. */
async function person(quota: number) {
  const someone = await userWithApiKey(stack);
  await stack.repositories.users.updateAccount(someone.id, { quota });
  const quotaNow = async () => (await (await someone.callApi('/api/auth/quota')).json()) as Record<string, unknown>;
  return { ...someone, quotaNow };
}

let seed = 7100;
const photos = (count: number) =>
  Promise.all(
    Array.from({ length: count }, async () => {
      seed += 1;
      return { name: `IMG_${seed}.JPG`, type: 'image/jpeg', bytes: await photo('jpeg', seed) };
    }),
  );

/** Makes the image's analysis fail on every attempt, as a lost object in the store would. */
async function loseObject(imageId: string) {
  const image = await stack.repositories.images.findById(imageId);
  await stack.platform.store.delete(image!.storageKey);
}

describe('quota follows fault', () => {
  it('gives a failed image’s count back once (also retried and failed again), lets one more upload through, and shows the credit to admins; cancelling and deleting give nothing back', async () => {
    const unlucky = await person(2);
    const first = await upload(stack.apiUrl, unlucky.key, await photos(2));
    expect(first.status).toBe(201);
    const [doomed] = first.body.accepted as { imageId: string }[];
    expect(await unlucky.quotaNow()).toMatchObject({ quota: 2, used: 2, remaining: 0 });
    const refused = await upload(stack.apiUrl, unlucky.key, await photos(1));
    expect(refused).toMatchObject({ status: 402, body: { code: 'quota_exceeded' } });

    // Someone who cancels one batch and deletes another, before any worker ran: nothing comes back.
    const careful = await person(5);
    const toCancel = await upload(stack.apiUrl, careful.key, await photos(2));
    const cancelled = await careful.callApi(`/api/batch/${toCancel.body.batchId}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(202);
    const toDelete = await upload(stack.apiUrl, careful.key, await photos(1));
    expect((await careful.callApi(`/api/batch/${toDelete.body.batchId}`, { method: 'DELETE' })).status).toBe(204);
    expect(await careful.quotaNow()).toMatchObject({ used: 3, remaining: 2 });

    await loseObject(doomed!.imageId);
    await startWorker();
    const settled = await waitForBatch(
      stack.apiUrl,
      unlucky.key,
      first.body.batchId,
      (status) => status.status === 'completed',
      60_000,
    );
    expect(settled.counts).toMatchObject({ ready: 1, failed: 1 });
    expect(await unlucky.quotaNow()).toMatchObject({ quota: 2, used: 1, remaining: 1 });

    // Retried, it fails for good a second time: still one image given back.
    expect((await unlucky.callApi(`/api/batch/${first.body.batchId}/retry`, { method: 'POST' })).status).toBe(202);
    const again = await waitForBatch(
      stack.apiUrl,
      unlucky.key,
      first.body.batchId,
      (status) => status.status === 'completed' && status.counts.failed === 1,
      60_000,
    );
    expect(again.counts).toMatchObject({ ready: 1, failed: 1 });
    expect(await unlucky.quotaNow()).toMatchObject({ used: 1, remaining: 1 });

    // At the quota but for the credited failure: exactly one more image goes through.
    expect((await upload(stack.apiUrl, unlucky.key, await photos(1))).status).toBe(201);
    expect(await unlucky.quotaNow()).toMatchObject({ used: 2, remaining: 0 });
    expect(await upload(stack.apiUrl, unlucky.key, await photos(1))).toMatchObject({
      status: 402,
      body: { code: 'quota_exceeded' },
    });

    expect(await careful.quotaNow()).toMatchObject({ used: 3, remaining: 2 });

    const admin = await signedIn(stack, ADMIN_EMAIL);
    const detail = await admin.admin.fetch(`/api/admin/users/${unlucky.id}`);
    expect(detail.status).toBe(200);
    expect(await detail.json()).toMatchObject({
      usage: { quota: 2, used: 2, remaining: 0 },
      quotaCredits: [
        { imageId: doomed!.imageId, reason: 'analysis failed after its last attempt', createdAt: expect.any(String) },
      ],
    });
    const carefulDetail = await (await admin.admin.fetch(`/api/admin/users/${careful.id}`)).json();
    expect(carefulDetail).toMatchObject({ usage: { used: 3 }, quotaCredits: [] });
  }, 180_000);
});
