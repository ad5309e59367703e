import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthStack, startAuthStack } from './support/auth-stack';

let stack: AuthStack;

beforeAll(async () => {
  stack = await startAuthStack({ name: 'api-auth-limit', authRateLimitPerMinute: 10, rateLimitPerMinute: 20 });
});
afterAll(() => stack?.close());

describe('sign-in rate limit', () => {
  it('answers the 11th sign-in request of a minute with 429 rate_limited and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await fetch(`${stack.apiUrl}/api/auth/login`, { redirect: 'manual' })).status);
    }
    expect(statuses).toEqual(Array(10).fill(302));
    const eleventh = await fetch(`${stack.apiUrl}/api/auth/callback?code=x&state=y`, { redirect: 'manual' });
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(eleventh.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await eleventh.json()).toMatchObject({ code: 'rate_limited', status: 429 });
    expect((await fetch(`${stack.apiUrl}/health/live`)).status).toBe(200);
  });
});

describe('request rate limit', () => {
  it('counts requests refused for bad credentials too, so guessing API keys is slowed down like anything else', async () => {
    const guess = () =>
      fetch(`${stack.apiUrl}/api/auth/me`, { headers: { authorization: 'Bearer rn_not-a-real-key' } });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await guess()).status);
    expect(statuses).toEqual(Array(20).fill(401));
    const next = await guess();
    expect(next.status).toBe(429);
    expect(await next.json()).toMatchObject({ code: 'rate_limited' });
  });
});
