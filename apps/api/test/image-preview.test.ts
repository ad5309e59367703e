import { Readable } from 'node:stream';
import { previewObjectKey } from '@renamer/storage';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_CACHE_CONTROL } from '../src/routes/images/preview';
import { type ApiStack, startApiStack, upload } from './support/api-stack';

let stack: ApiStack;
let api: { url: string };

// No worker runs here: every image is still queued, so each preview is made on demand from the original.
beforeAll(async () => {
  stack = await startApiStack('image-preview');
  api = await stack.startApi();
}, 60_000);
afterAll(() => stack?.close());

type User = Awaited<ReturnType<ApiStack['createUser']>>;

/**
 * Stored landscape, red on the left and blue on the right, with EXIF orientation 6: a person sees it portrait,
 * red on top. Each seed shades the blue a little, so that every upload is a file of its own.
 */
const rotatedJpeg = (seed: number, width = 1600, height = 800) =>
  sharp({ create: { width, height, channels: 3, background: { r: 0, g: seed, b: 255 } } })
    .composite([{ input: { create: { width: width / 2, height, channels: 3, background: 'red' } }, left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();

let seed = 0;
/** An uploaded image: by default the 1600×800 one, or a camera-sized 3000×2000 one (a 2000×3000 portrait upright). */
async function uploaded(owner: User, size: 'default' | 'big' = 'default') {
  const bytes = size === 'big' ? await rotatedJpeg(++seed, 3000, 2000) : await rotatedJpeg(++seed);
  const { status, body } = await upload(api.url, owner.key, [{ name: 'IMG_0001.jpg', bytes, type: 'image/jpeg' }]);
  expect(status).toBe(201);
  return { batchId: body.batchId as string, imageId: body.accepted[0].imageId as string };
}

const previewOf = (imageId: string, headers: Record<string, string> = {}, size?: string) =>
  fetch(`${api.url}/api/image/${imageId}/preview${size ? `?size=${size}` : ''}`, { headers });

async function replaceOriginal(userId: string, imageId: string, bytes: Buffer) {
  const image = (await stack.repositories.images.findByIdForUser(imageId, userId))!;
  await stack.platform.store.put(image.storageKey, Readable.from([bytes]), { size: bytes.length });
}

/** Mean red and blue of the top and bottom fifths: which side of the picture is up. */
async function topAndBottom(webp: Buffer) {
  const { data, info } = await sharp(webp).raw().toBuffer({ resolveWithObject: true });
  const band = (fromRow: number) => {
    let red = 0;
    let blue = 0;
    const rows = Math.floor(info.height / 5);
    for (let y = fromRow; y < fromRow + rows; y++) {
      for (let x = 0; x < info.width; x++) {
        const at = (y * info.width + x) * info.channels;
        red += data[at]!;
        blue += data[at + 2]!;
      }
    }
    return { red: red / (rows * info.width), blue: blue / (rows * info.width) };
  };
  return { top: band(0), bottom: band(info.height - Math.floor(info.height / 5)) };
}

describe('GET /api/image/:imageId/preview', () => {
  it('makes a missing preview from the original, upright, and serves the stored one afterwards', async () => {
    const owner = await stack.createUser();
    const { imageId } = await uploaded(owner);

    const first = await previewOf(imageId, owner.headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/webp');
    expect(first.headers.get('cache-control')).toBe(PREVIEW_CACHE_CONTROL);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const webp = Buffer.from(await first.arrayBuffer());
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 256, height: 512 });
    const { top, bottom } = await topAndBottom(webp);
    expect(top.red).toBeGreaterThan(200);
    expect(top.blue).toBeLessThan(50);
    expect(bottom.blue).toBeGreaterThan(200);
    expect(bottom.red).toBeLessThan(50);
    expect(await stack.storedKeys(owner.user.id)).toContain(previewObjectKey(owner.user.id, imageId));

    // Made once: with the original now another picture, the stored preview is what comes back.
    await replaceOriginal(
      owner.user.id,
      imageId,
      await sharp({ create: { width: 80, height: 80, channels: 3, background: 'green' } })
        .jpeg()
        .toBuffer(),
    );
    const again = await previewOf(imageId, owner.headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe(etag);
    expect(Buffer.from(await again.arrayBuffer())).toEqual(webp);
  });

  it('answers 304 without a body when the client holds the current copy', async () => {
    const owner = await stack.createUser();
    const { imageId } = await uploaded(owner);
    const etag = (await previewOf(imageId, owner.headers)).headers.get('etag')!;

    for (const ifNoneMatch of [etag, etag.replace(/^W\//, ''), `"something-else", ${etag}`, '*']) {
      const cached = await previewOf(imageId, { ...owner.headers, 'if-none-match': ifNoneMatch });
      expect(cached.status, ifNoneMatch).toBe(304);
      expect(cached.headers.get('etag')).toBe(etag);
      expect(cached.headers.get('cache-control')).toBe(PREVIEW_CACHE_CONTROL);
      expect(await cached.text()).toBe('');
    }
    const stale = await previewOf(imageId, { ...owner.headers, 'if-none-match': 'W/"an-older-copy"' });
    expect(stale.status).toBe(200);
  });

  it("is the owner's alone: another user gets 404, no credentials 401", async () => {
    const owner = await stack.createUser();
    const stranger = await stack.createUser();
    const { imageId } = await uploaded(owner);

    const foreign = await previewOf(imageId, stranger.headers);
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('content-type')).toContain('application/problem+json');
    expect(((await foreign.json()) as { code: string }).code).toBe('not_found');
    expect((await previewOf(imageId)).status).toBe(401);
    expect((await previewOf(crypto.randomUUID(), owner.headers)).status).toBe(404);
    expect(await stack.storedKeys(owner.user.id)).not.toContain(previewObjectKey(owner.user.id, imageId));
  });

  it('answers 422 undecodable_image for an original that cannot be decoded, and stores nothing', async () => {
    const owner = await stack.createUser();
    const { imageId } = await uploaded(owner);
    const jpeg = await rotatedJpeg(99);
    await replaceOriginal(owner.user.id, imageId, jpeg.subarray(0, 600));

    const response = await previewOf(imageId, owner.headers);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ code: 'undecodable_image', status: 422 });
    expect(await stack.storedKeys(owner.user.id)).not.toContain(previewObjectKey(owner.user.id, imageId));
  });

  it("goes with its batch, both sizes, and with the account under the user's prefix", async () => {
    const owner = await stack.createUser();
    const kept = await uploaded(owner);
    const doomed = await uploaded(owner);
    for (const { imageId } of [kept, doomed]) {
      expect((await previewOf(imageId, owner.headers)).status).toBe(200);
      expect((await previewOf(imageId, owner.headers, 'large')).status).toBe(200);
    }
    expect(await stack.storedKeys(owner.user.id)).toContain(previewObjectKey(owner.user.id, doomed.imageId, 'large'));
    const keptKeys = (await stack.storedKeys(owner.user.id)).filter((key) => !key.includes(doomed.imageId));
    expect(keptKeys).toHaveLength(3);

    const deleted = await fetch(`${api.url}/api/batch/${doomed.batchId}`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBe(204);
    expect(await stack.storedKeys(owner.user.id)).toEqual(keptKeys);
    expect((await previewOf(doomed.imageId, owner.headers)).status).toBe(404);
    expect((await previewOf(doomed.imageId, owner.headers, 'large')).status).toBe(404);

    const gone = await fetch(`${api.url}/api/auth/me`, { method: 'DELETE', headers: owner.headers });
    expect(gone.status).toBe(204);
    expect(await stack.storedKeys(owner.user.id)).toEqual([]);
  });
});

describe('GET /api/image/:imageId/preview?size=large', () => {
  it('is at most 1600 px on the long side, upright, WebP without metadata, and larger than the small one', async () => {
    const owner = await stack.createUser();
    const { imageId } = await uploaded(owner, 'big');

    const large = await previewOf(imageId, owner.headers, 'large');
    expect(large.status).toBe(200);
    expect(large.headers.get('content-type')).toBe('image/webp');
    expect(large.headers.get('cache-control')).toBe(PREVIEW_CACHE_CONTROL);
    const webp = Buffer.from(await large.arrayBuffer());
    const metadata = await sharp(webp).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 1067, height: 1600 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    const { top, bottom } = await topAndBottom(webp);
    expect(top.red).toBeGreaterThan(200);
    expect(top.blue).toBeLessThan(50);
    expect(bottom.blue).toBeGreaterThan(200);
    expect(bottom.red).toBeLessThan(50);

    const small = Buffer.from(await (await previewOf(imageId, owner.headers)).arrayBuffer());
    expect(await sharp(small).metadata()).toMatchObject({ width: 341, height: 512 });
    // `size=small` is the default spelled out.
    expect(Buffer.from(await (await previewOf(imageId, owner.headers, 'small')).arrayBuffer())).toEqual(small);
  });

  it('is made once on the first request, stored, and served from the store afterwards', async () => {
    const owner = await stack.createUser();
    const { imageId } = await uploaded(owner, 'big');
    const largeKey = previewObjectKey(owner.user.id, imageId, 'large');
    expect(await stack.storedKeys(owner.user.id)).not.toContain(largeKey);

    // Requests at the same moment all get the same picture.
    const first = await Promise.all([1, 2, 3].map(() => previewOf(imageId, owner.headers, 'large')));
    const bodies = await Promise.all(first.map(async (response) => Buffer.from(await response.arrayBuffer())));
    for (const response of first) expect(response.status).toBe(200);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(await stack.storedKeys(owner.user.id)).toContain(largeKey);

    await replaceOriginal(
      owner.user.id,
      imageId,
      await sharp({ create: { width: 80, height: 80, channels: 3, background: 'green' } })
        .jpeg()
        .toBuffer(),
    );
    const again = await previewOf(imageId, owner.headers, 'large');
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer())).toEqual(bodies[0]);
  });

  it('has an ETag of its own: 304 for the large copy, never for the small one', async () => {
    const owner = await stack.createUser();
    const { imageId } = await uploaded(owner);
    const smallEtag = (await previewOf(imageId, owner.headers)).headers.get('etag')!;
    const largeEtag = (await previewOf(imageId, owner.headers, 'large')).headers.get('etag')!;
    expect(largeEtag).toMatch(/^W\/".+"$/);
    expect(largeEtag).not.toBe(smallEtag);

    const cached = await previewOf(imageId, { ...owner.headers, 'if-none-match': largeEtag }, 'large');
    expect(cached.status).toBe(304);
    expect(cached.headers.get('etag')).toBe(largeEtag);
    expect(await cached.text()).toBe('');

    const wrongSize = await previewOf(imageId, { ...owner.headers, 'if-none-match': smallEtag }, 'large');
    expect(wrongSize.status).toBe(200);
    expect(await sharp(Buffer.from(await wrongSize.arrayBuffer())).metadata()).toMatchObject({ height: 1600 });
    const otherWay = await previewOf(imageId, { ...owner.headers, 'if-none-match': largeEtag });
    expect(otherWay.status).toBe(200);
    expect(await sharp(Buffer.from(await otherWay.arrayBuffer())).metadata()).toMatchObject({ height: 512 });
  });

  it('answers 400 validation_failed for a size it does not know', async () => {
    const owner = await stack.createUser();
    const { imageId } = await uploaded(owner);
    for (const size of ['huge', 'LARGE', '1600']) {
      const response = await previewOf(imageId, owner.headers, size);
      expect(response.status, size).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(await response.json()).toMatchObject({ code: 'validation_failed', status: 400 });
    }
  });

  it("is the owner's alone: another user gets 404 and nothing is made", async () => {
    const owner = await stack.createUser();
    const stranger = await stack.createUser();
    const { imageId } = await uploaded(owner, 'big');

    const foreign = await previewOf(imageId, stranger.headers, 'large');
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('content-type')).toContain('application/problem+json');
    expect(await stack.storedKeys(owner.user.id)).not.toContain(previewObjectKey(owner.user.id, imageId, 'large'));
  });
});

describe('GET /api/image/:imageId/preview?size=full', () => {
  it('is the original itself, byte for byte, when browsers show its format, with a strong ETag of its own', async () => {
    const owner = await stack.createUser();
    const bytes = await rotatedJpeg(++seed, 3000, 2000);
    const { body } = await upload(api.url, owner.key, [{ name: 'IMG_0002.jpg', bytes, type: 'image/jpeg' }]);
    const imageId = body.accepted[0].imageId as string;

    const full = await previewOf(imageId, owner.headers, 'full');
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('image/jpeg');
    expect(full.headers.get('content-length')).toBe(String(bytes.length));
    expect(full.headers.get('cache-control')).toBe(PREVIEW_CACHE_CONTROL);
    expect(Buffer.from(await full.arrayBuffer())).toEqual(bytes);
    const etag = full.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    expect((await previewOf(imageId, { ...owner.headers, 'if-none-match': etag }, 'full')).status).toBe(304);
    // Not a preview: nothing is made or stored for it, and the large copy's tag is another.
    expect(await stack.storedKeys(owner.user.id)).not.toContain(previewObjectKey(owner.user.id, imageId, 'large'));
    const large = await previewOf(imageId, { ...owner.headers, 'if-none-match': etag }, 'large');
    expect(large.status).toBe(200);
    expect(large.headers.get('etag')).not.toBe(etag);

    expect((await previewOf(imageId, (await stack.createUser()).headers, 'full')).status).toBe(404);
  });

  it('is the large preview for a format browsers do not show (TIFF)', async () => {
    const owner = await stack.createUser();
    const tiff = await sharp({
      create: { width: 2400, height: 1200, channels: 3, background: { r: 9, g: ++seed, b: 90 } },
    })
      .tiff()
      .toBuffer();
    const { status, body } = await upload(api.url, owner.key, [{ name: 'scan.tif', bytes: tiff, type: 'image/tiff' }]);
    expect(status).toBe(201);
    const full = await previewOf(body.accepted[0].imageId, owner.headers, 'full');
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await full.arrayBuffer())).metadata()).toMatchObject({
      format: 'webp',
      width: 1600,
      height: 800,
    });
  });
});
