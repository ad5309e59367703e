import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, getJson, startApiStack, upload } from './support/api-stack';
import { photo } from './support/images';

let stack: ApiStack;
let api: { url: string };

beforeAll(async () => {
  stack = await startApiStack('upload-duplicates');
  api = await stack.startApi();
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const jpeg = (name: string, bytes: Buffer) => ({ name, bytes, type: 'image/jpeg' });

async function quotaUsed(key: string): Promise<number> {
  const { body } = await getJson(`${api.url}/api/auth/quota`, key);
  return body!.used;
}

/** The bytes behind an image's download link, fetched as a browser would follow it. */
async function downloadedBytes(key: string, imageId: string) {
  const { status, body } = await getJson(`${api.url}/api/image/${imageId}/download`, key);
  expect(status).toBe(200);
  const response = await fetch(new URL(body!.url, api.url));
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('POST /api/batch with a file the person already holds', () => {
  it('refuses it by default, naming the earlier image, and stores nothing more', async () => {
    const owner = await stack.createUser();
    const bytes = await photo('jpeg', 901);
    const first = await upload(api.url, owner.key, [jpeg('mug.jpg', bytes)]);
    expect(first.status).toBe(201);
    const keysBefore = await stack.storedKeys(owner.user.id);

    const again = await upload(api.url, owner.key, [jpeg('mug-again.jpg', bytes)], { duplicates: 'refuse' });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('upload_rejected');
    expect(again.body.errors).toEqual([
      { path: 'mug-again.jpg', message: 'You already have this image.', code: 'duplicate_file' },
    ]);

    const mixed = await upload(api.url, owner.key, [
      jpeg('mug-3.jpg', bytes),
      jpeg('new.jpg', await photo('jpeg', 902)),
    ]);
    expect(mixed.status).toBe(201);
    expect(mixed.body.rejected).toEqual([
      {
        originalFilename: 'mug-3.jpg',
        code: 'duplicate_file',
        detail: 'You already have this image.',
        duplicateOf: first.body.accepted[0].imageId,
      },
    ]);
    expect(await quotaUsed(owner.key)).toBe(2);
    expect((await stack.storedKeys(owner.user.id)).length).toBe(keysBefore.length + 1);
  });

  it('with duplicates=allow makes a new image with its own object, counted against the quota, that outlives the first batch', async () => {
    const owner = await stack.createUser();
    const bytes = await photo('jpeg', 903);
    const first = await upload(api.url, owner.key, [jpeg('shoe.jpg', bytes)]);
    expect(first.status).toBe(201);
    const firstImageId = first.body.accepted[0].imageId;
    expect(await quotaUsed(owner.key)).toBe(1);

    const again = await upload(api.url, owner.key, [jpeg('shoe-for-shop-b.jpg', bytes)], { duplicates: 'allow' });
    expect(again.status).toBe(201);
    expect(again.body.rejected).toEqual([]);
    expect(again.body.batchId).not.toBe(first.body.batchId);
    const secondImageId = again.body.accepted[0].imageId;
    expect(secondImageId).not.toBe(firstImageId);
    expect(await quotaUsed(owner.key)).toBe(2);

    const second = await getJson(`${api.url}/api/image/${secondImageId}`, owner.key);
    expect(second.body).toMatchObject({
      batchId: again.body.batchId,
      checksum: sha256(bytes),
      originalFilename: 'shoe-for-shop-b.jpg',
    });
    // Two objects: one per image.
    const stored = await stack.repositories.images.findById(secondImageId);
    const earlier = await stack.repositories.images.findById(firstImageId);
    expect(stored!.reupload).toBe(true);
    expect(earlier!.reupload).toBe(false);
    expect(stored!.storageKey).not.toBe(earlier!.storageKey);

    // The check still says what is held: the earliest image.
    const check = await getJson(`${api.url}/api/batch/check`, owner.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ checksums: [sha256(bytes)] }),
    });
    expect(check.body).toEqual({ existing: [{ checksum: sha256(bytes), imageId: firstImageId }] });

    const deleted = await fetch(`${api.url}/api/batch/${first.body.batchId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(deleted.status).toBe(204);
    expect((await getJson(`${api.url}/api/image/${firstImageId}`, owner.key)).status).toBe(404);

    const download = await downloadedBytes(owner.key, secondImageId);
    expect(download.status).toBe(200);
    expect(sha256(download.bytes)).toBe(sha256(bytes));
    // Deleting does not give quota back.
    expect(await quotaUsed(owner.key)).toBe(2);
  });

  it('with duplicates=allow still refuses a file repeated within the request, keeping the first copy', async () => {
    const owner = await stack.createUser();
    const held = await photo('jpeg', 904);
    const newOne = await photo('jpeg', 905);
    expect((await upload(api.url, owner.key, [jpeg('held.jpg', held)])).status).toBe(201);

    const { status, body } = await upload(
      api.url,
      owner.key,
      [
        jpeg('held-again.jpg', held),
        jpeg('held-twice.jpg', held),
        jpeg('new.jpg', newOne),
        jpeg('new-twice.jpg', newOne),
      ],
      { duplicates: 'allow' },
    );
    expect(status).toBe(201);
    expect(body.accepted.map((file: { originalFilename: string }) => file.originalFilename)).toEqual([
      'held-again.jpg',
      'new.jpg',
    ]);
    expect(body.rejected).toEqual([
      {
        originalFilename: 'held-twice.jpg',
        code: 'duplicate_file',
        detail: 'The same file is earlier in this upload.',
        duplicateOf: body.accepted[0].imageId,
      },
      {
        originalFilename: 'new-twice.jpg',
        code: 'duplicate_file',
        detail: 'The same file is earlier in this upload.',
        duplicateOf: body.accepted[1].imageId,
      },
    ]);
    expect(await quotaUsed(owner.key)).toBe(3);
  });

  it('with duplicates=allow keeps both of two uploads of the same new file sent at the same moment', async () => {
    const owner = await stack.createUser();
    const bytes = await photo('jpeg', 907);
    const both = await Promise.all(
      [1, 2].map((n) => upload(api.url, owner.key, [jpeg(`lamp-${n}.jpg`, bytes)], { duplicates: 'allow' })),
    );
    expect(both.map(({ status }) => status)).toEqual([201, 201]);
    expect(await quotaUsed(owner.key)).toBe(2);
    expect((await stack.storedKeys(owner.user.id)).length).toBe(2);
  });

  it('answers 400 validation_failed for a duplicates value other than refuse or allow, keeping nothing', async () => {
    const owner = await stack.createUser();
    const { status, body } = await upload(api.url, owner.key, [jpeg('a.jpg', await photo('jpeg', 906))], {
      duplicates: 'sometimes',
    });
    expect(status).toBe(400);
    expect(body.code).toBe('validation_failed');
    expect(body.errors[0].path).toBe('body.duplicates');
    expect(await stack.storedKeys(owner.user.id)).toEqual([]);
    expect(await quotaUsed(owner.key)).toBe(0);
  });
});
