import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, startApiStack, upload } from './support/api-stack';
import { photo } from './support/images';

/** Small budgets, so that a test spends them: the upload that makes each user's image is one general request. */
const GENERAL = 3;
const PREVIEWS = 5;

let stack: ApiStack;
let url: string;

beforeAll(async () => {
  stack = await startApiStack('preview-rate-limit', {
    RATE_LIMIT_PER_MINUTE: String(GENERAL),
    PREVIEW_RATE_LIMIT_PER_MINUTE: String(PREVIEWS),
  });
  ({ url } = await stack.startApi());
}, 60_000);
afterAll(() => stack?.close());

type User = Awaited<ReturnType<ApiStack['createUser']>>;

/** A user with one uploaded image (no worker runs: its preview is made on demand from the original). */
async function userWithImage(seed: number) {
  const user = await stack.createUser();
  const bytes = await photo('jpeg', seed);
  const { status, body } = await upload(url, user.key, [{ name: 'IMG_0001.jpg', bytes, type: 'image/jpeg' }]);
  expect(status).toBe(201);
  return { user, imageId: body.accepted[0].imageId as string };
}

const preview = (user: Pick<User, 'headers'>, imageId: string, size?: 'large') =>
  fetch(`${url}/api/image/${imageId}/preview${size ? `?size=${size}` : ''}`, { headers: user.headers });
const me = (user: Pick<User, 'headers'>) => fetch(`${url}/api/auth/me`, { headers: user.headers });

describe('the preview rate limit', () => {
  it('counts previews on a counter of their own: the one over PREVIEW_RATE_LIMIT_PER_MINUTE is 429, other routes still answer', async () => {
    const { user, imageId } = await userWithImage(1);
    const statuses: number[] = [];
    for (let i = 0; i < PREVIEWS; i++)
      statuses.push((await preview(user, imageId, i % 2 ? 'large' : undefined)).status);
    expect(statuses).toEqual(Array(PREVIEWS).fill(200));

    const over = await preview(user, imageId);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await over.json()).toMatchObject({ code: 'rate_limited', status: 429 });

    // The upload and these two are the general budget: the previews took none of it.
    expect((await me(user)).status).toBe(200);
    expect((await me(user)).status).toBe(200);
    expect((await me(user)).status).toBe(429);
  });

  it('leaves previews working when the general budget is spent', async () => {
    const { user, imageId } = await userWithImage(2);
    for (let i = 1; i < GENERAL; i++) expect((await me(user)).status).toBe(200);
    const refused = await me(user);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });

    const statuses: number[] = [];
    for (let i = 0; i < PREVIEWS; i++) statuses.push((await preview(user, imageId)).status);
    expect(statuses).toEqual(Array(PREVIEWS).fill(200));
    // Another user's image, or none: a 404 is counted like any preview.
    expect((await preview(user, crypto.randomUUID())).status).toBe(429);
  });

  it('counts previews with bad credentials on the address’s ordinary counter, not on the larger one', async () => {
    const guesser = { headers: { authorization: 'Bearer rn_not-a-real-key' } };
    const imageId = crypto.randomUUID();
    const statuses: number[] = [];
    for (let i = 0; i < GENERAL; i++) statuses.push((await preview(guesser, imageId)).status);
    expect(statuses).toEqual(Array(GENERAL).fill(401));
    const over = await preview(guesser, imageId);
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ code: 'rate_limited' });
  });
});
