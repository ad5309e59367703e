import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@renamer/contracts';
import { createHttpService } from '@renamer/http';
import { createLogger } from '@renamer/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushErrorTracking, initErrorTracking } from '../src';

/** A Sentry-compatible receiver: the envelopes the SDK posts to /api/<project>/envelope/, as text. */
const envelopes: string[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    if (request.url?.startsWith('/api/1/envelope/')) envelopes.push(Buffer.concat(chunks).toString('utf8'));
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

const service = createHttpService({ service: 'api', logger: createLogger('api', 'silent'), healthChecks: {} });
service.get('/boom', async (request) => {
  // What the auth plugin leaves on a signed-in request.
  (request as unknown as { principal: unknown }).principal = { user: { id: '7f1e2d3c-0000-4000-8000-000000000001' } };
  throw new Error('the disk is on fire');
});

service.get('/closed', async () => {
  throw new AppError('uploads_disabled', 'Uploads are switched off for now.');
});

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  await initErrorTracking({ dsn: `http://publickey@127.0.0.1:${port}/1`, service: 'api', environment: 'test' });
  await service.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await service.close();
  receiver.close();
});

describe('error tracking', () => {
  it('sends an unexpected error to Sentry with the request id and the user id, and no credentials', async () => {
    const address = service.server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${address.port}/boom`, {
      headers: { authorization: 'Bearer rn_secret-token-never-sent', 'x-request-id': 'req-sentry-1' },
    });
    expect(response.status).toBe(500);
    await flushErrorTracking();

    await expect.poll(() => envelopes.length, { timeout: 5_000 }).toBe(1);
    const [event] = envelopes;
    expect(event).toContain('the disk is on fire');
    expect(event).toContain('"requestId":"req-sentry-1"');
    expect(event).toContain('"id":"7f1e2d3c-0000-4000-8000-000000000001"');
    expect(event).not.toContain('rn_secret-token-never-sent');
  });

  it('leaves the refusals the service chose alone, a 503 it answers on purpose included', async () => {
    const address = service.server.address() as AddressInfo;
    const before = envelopes.length;
    expect((await fetch(`http://127.0.0.1:${address.port}/no-such-route`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${address.port}/closed`)).status).toBe(503);
    await flushErrorTracking();
    expect(envelopes.length).toBe(before);
  });
});
