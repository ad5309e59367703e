import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminApi } from './support/admin-api';

let admin: Awaited<ReturnType<typeof startAdminApi>>;

beforeAll(async () => {
  admin = await startAdminApi('admin-rate-limit', { RATE_LIMIT_PER_MINUTE: '5' });
});
afterAll(() => admin?.close());

describe('rate limit', () => {
  it('answers the request over RATE_LIMIT_PER_MINUTE with 429 rate_limited and Retry-After, bad credentials included', async () => {
    const guess = () =>
      fetch(`${admin.url}/api/admin/health`, { headers: { authorization: 'Bearer rn_not-a-real-key' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await guess()).status);
    expect(statuses).toEqual(Array(5).fill(401));

    const next = await guess();
    expect(next.status).toBe(429);
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(next.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await next.json()).toMatchObject({ code: 'rate_limited', status: 429 });
    expect((await fetch(`${admin.url}/health/live`)).status).toBe(200);
  });
});
