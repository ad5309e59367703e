import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, getJson, startApiStack } from './support/api-stack';

/**
 * The webhook endpoints through the real API: one instance as production runs it (WEBHOOKS_ALLOW_INSECURE off)
 * and one with the development setting, over one database.
 */
let stack: ApiStack;
let strict: { url: string };
let insecure: { url: string };
/** A listener on loopback that counts what reaches it: nothing should. */
let listener: Server;
let listenerHits = 0;
let listenerPort = 0;

beforeAll(async () => {
  stack = await startApiStack('webhooks-api');
  strict = await stack.startApi({ WEBHOOKS_ALLOW_INSECURE: 'false' });
  insecure = await stack.startApi({ WEBHOOKS_ALLOW_INSECURE: 'true' });
  listener = createServer((_request, response) => {
    listenerHits += 1;
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerPort = (listener.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => listener?.close(() => resolve()));
  await stack?.close();
});

const create = (apiUrl: string, key: string, body: unknown) =>
  fetch(`${apiUrl}/api/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('without WEBHOOKS_ALLOW_INSECURE', () => {
  it.each([
    ['an http URL', () => `http://127.0.0.1:${listenerPort}/hooks`],
    ['loopback by address', () => `https://127.0.0.1:${listenerPort}/hooks`],
    ['a hostname that resolves to loopback', () => `https://localhost:${listenerPort}/hooks`],
    ['IPv6 loopback', () => `https://[::1]:${listenerPort}/hooks`],
    ['the cloud metadata address', () => 'https://169.254.169.254/latest/meta-data/'],
    ['a private address', () => 'https://10.0.0.1/hooks'],
  ])('refuses %s with invalid_webhook_url, and the listener hears nothing', async (_what, url) => {
    const owner = await stack.createUser();
    const response = await create(strict.url, owner.key, { url: url(), events: ['batch.completed'] });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as { code: string; detail: string; errors?: { path: string }[] };
    expect(problem.code).toBe('invalid_webhook_url');
    expect(problem.errors?.[0]?.path).toBe('body.url');
    const listed = await getJson(`${strict.url}/api/webhooks`, owner.key);
    expect(listed.body?.items).toEqual([]);
    expect(listenerHits).toBe(0);
  });

  it('refuses the private ranges even with the development setting', async () => {
    const owner = await stack.createUser();
    for (const url of ['http://192.168.1.1/', 'http://169.254.169.254/', 'http://[fe80::1]/', 'http://0.0.0.0/']) {
      const response = await create(insecure.url, owner.key, { url, events: ['batch.failed'] });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('invalid_webhook_url');
    }
  });
});

describe('an endpoint', () => {
  it('shows its secret once, lists without it, and refuses an unknown event or a repeated one', async () => {
    const owner = await stack.createUser();
    const response = await create(insecure.url, owner.key, {
      url: `http://localhost:${listenerPort}/hooks`,
      events: ['batch.completed', 'image.failed'],
      description: 'shop sync',
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as Record<string, unknown>;
    expect(created).toMatchObject({
      url: `http://localhost:${listenerPort}/hooks`,
      events: ['batch.completed', 'image.failed'],
      description: 'shop sync',
      disabledAt: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const listed = await getJson(`${insecure.url}/api/webhooks`, owner.key);
    expect(listed.body?.items).toHaveLength(1);
    expect(listed.body?.items[0]).not.toHaveProperty('secret');
    const one = await getJson(`${insecure.url}/api/webhooks/${created.id}`, owner.key);
    expect(one.body).toMatchObject({ id: created.id, events: ['batch.completed', 'image.failed'] });
    expect(one.body).not.toHaveProperty('secret');
    expect(JSON.stringify(listed.body)).not.toContain(String(created.secret));

    for (const events of [['batch.exploded'], ['batch.failed', 'batch.failed'], []]) {
      const bad = await create(insecure.url, owner.key, { url: `http://localhost:${listenerPort}/`, events });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { code: string }).code).toBe('validation_failed');
    }
    expect(listenerHits).toBe(0);
  });

  it('is one of at most 10: the 11th is refused with conflict, and deleting one makes room', async () => {
    const owner = await stack.createUser();
    const ids: string[] = [];
    for (let n = 0; n < 10; n += 1) {
      const response = await create(insecure.url, owner.key, {
        url: `http://127.0.0.1:${listenerPort}/hooks/${n}`,
        events: ['batch.completed'],
      });
      expect(response.status).toBe(201);
      ids.push(((await response.json()) as { id: string }).id);
    }
    const eleventh = await create(insecure.url, owner.key, {
      url: `http://127.0.0.1:${listenerPort}/hooks/10`,
      events: ['batch.completed'],
    });
    expect(eleventh.status).toBe(409);
    expect(((await eleventh.json()) as { code: string; detail: string }).detail).toContain('at most 10');

    const removed = await getJson(`${insecure.url}/api/webhooks/${ids[0]}`, owner.key, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await getJson(`${insecure.url}/api/webhooks/${ids[0]}`, owner.key)).status).toBe(404);
    const again = await create(insecure.url, owner.key, {
      url: `http://127.0.0.1:${listenerPort}/hooks/10`,
      events: ['batch.completed'],
    });
    expect(again.status).toBe(201);
    expect((await getJson(`${insecure.url}/api/webhooks`, owner.key)).body?.items).toHaveLength(10);
  });

  it('of another person is not_found, whatever is asked of it, and stays as it was', async () => {
    const owner = await stack.createUser();
    const stranger = await stack.createUser();
    const response = await create(insecure.url, owner.key, {
      url: `http://127.0.0.1:${listenerPort}/hooks`,
      events: ['batch.cancelled'],
    });
    const { id } = (await response.json()) as { id: string };
    for (const [path, method] of [
      [`/api/webhooks/${id}`, 'GET'],
      [`/api/webhooks/${id}`, 'DELETE'],
      [`/api/webhooks/${id}/test`, 'POST'],
      [`/api/webhooks/${id}/deliveries`, 'GET'],
    ] as const) {
      const answer = await getJson(`${insecure.url}${path}`, stranger.key, { method });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body?.code).toBe('not_found');
    }
    expect((await getJson(`${insecure.url}/api/webhooks`, stranger.key)).body?.items).toEqual([]);
    expect((await getJson(`${insecure.url}/api/webhooks/${id}/deliveries`, owner.key)).body).toEqual({
      items: [],
      nextCursor: null,
    });
    expect((await getJson(`${insecure.url}/api/webhooks/${id}`, owner.key)).status).toBe(200);
  });

  it('needs credentials', async () => {
    const response = await fetch(`${strict.url}/api/webhooks`);
    expect(response.status).toBe(401);
  });
});
