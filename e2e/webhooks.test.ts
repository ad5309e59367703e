import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getJson, photo, upload, waitForBatch } from '@renamer/api/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PipelineStack, startPipelineStack } from './support/pipeline-stack';

/**
 * Webhooks end to end: the API (WEBHOOKS_ALLOW_INSECURE=true, so an endpoint on loopback may be made) and a
 * worker process that delivers, against a receiver on 127.0.0.1 that checks every signature with the
 * Standard Webhooks reference library.
 */
let stack: PipelineStack;
let api: { url: string };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** What `Webhook.verify` made of it, or the error it threw. */
  verified: { type: string; data: Record<string, unknown> } | Error;
}

/** A receiver on loopback answering with whatever `answer` says for the nth request (from 1). */
async function startReceiver(answer: (n: number) => number = () => 204) {
  const received: Received[] = [];
  let secret = '';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: Received['verified'];
      try {
        verified = new Webhook(secret).verify(body, request.headers as Record<string, string>) as Received['verified'];
      } catch (error) {
        verified = error as Error;
      }
      received.push({ headers: request.headers, body, verified });
      response.writeHead(answer(received.length)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    useSecret: (value: string) => {
      secret = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  stack = await startPipelineStack('webhooks-e2e', { WEBHOOKS_ALLOW_INSECURE: 'true' });
  api = await stack.startApi();
  await stack.startWorker({ ANALYSIS_STEPS: '', WEBHOOKS_ALLOW_INSECURE: 'true', WEBHOOKS_RETRY_BASE_MS: '500' });
}, 90_000);

afterAll(() => stack?.close());

async function createEndpoint(key: string, url: string, events: string[]) {
  return getJson(`${api.url}/api/webhooks`, key, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, events }),
  });
}

describe('a delivery that fails once', () => {
  it('is tried again with the same webhook-id, signed anew, and the attempt log shows both', async () => {
    const receiver = await startReceiver((n) => (n === 1 ? 500 : 200));
    try {
      const owner = await stack.createUser();
      const created = await createEndpoint(owner.key, receiver.url, ['batch.completed']);
      expect(created.status).toBe(201);
      expect(created.body!.secret).toMatch(/^whsec_/);
      receiver.useSecret(created.body!.secret);

      const ping = await getJson(`${api.url}/api/webhooks/${created.body!.id}/test`, owner.key, { method: 'POST' });
      expect(ping.status).toBe(202);
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);

      const [first, second] = receiver.received;
      for (const delivery of [first!, second!]) {
        expect(delivery.verified).not.toBeInstanceOf(Error);
        expect(delivery.verified).toMatchObject({ type: 'webhook.test', data: { webhookId: created.body!.id } });
        expect(delivery.headers['content-type']).toBe('application/json');
      }
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(first!.headers['webhook-id']).toBe(ping.body!.messageId);
      expect(second!.headers['webhook-signature']).toMatch(/^v1,/);

      // A signature made with another secret is refused by the same library: the check above means something.
      expect(() =>
        new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
          second!.body,
          second!.headers as Record<string, string>,
        ),
      ).toThrow();

      await expect
        .poll(
          async () =>
            (await getJson(`${api.url}/api/webhooks/${created.body!.id}/deliveries`, owner.key)).body?.items?.[0]
              ?.status,
          { timeout: 10_000 },
        )
        .toBe('delivered');
      const log = await getJson(`${api.url}/api/webhooks/${created.body!.id}/deliveries`, owner.key);
      expect(log.status).toBe(200);
      expect(log.body!.items).toHaveLength(2);
      const [latest, earliest] = log.body!.items;
      expect(earliest).toMatchObject({
        event: 'webhook.test',
        attempt: 1,
        status: 'failed',
        responseStatus: 500,
        messageId: ping.body!.messageId,
      });
      expect(earliest.nextAttemptAt).not.toBeNull();
      expect(latest).toMatchObject({
        event: 'webhook.test',
        attempt: 2,
        status: 'delivered',
        responseStatus: 200,
        messageId: ping.body!.messageId,
        nextAttemptAt: null,
      });
    } finally {
      await receiver.close();
    }
  });
});

describe('a batch that finishes', () => {
  it('is announced as batch.completed with the batch status, to the endpoints that take it only', async () => {
    const receiver = await startReceiver();
    const other = await startReceiver();
    try {
      const owner = await stack.createUser();
      const created = await createEndpoint(owner.key, receiver.url, ['batch.completed', 'image.failed']);
      receiver.useSecret(created.body!.secret);
      const notInterested = await createEndpoint(owner.key, other.url, ['batch.cancelled']);
      expect(notInterested.status).toBe(201);

      const { status, body } = await upload(api.url, owner.key, [
        { name: 'shoe.jpg', bytes: await photo('jpeg', 11), type: 'image/jpeg' },
      ]);
      expect(status).toBe(201);
      await waitForBatch(api.url, owner.key, body.batchId, (batch) => batch.status === 'completed');

      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
      const [delivery] = receiver.received;
      expect(delivery!.verified).toMatchObject({
        type: 'batch.completed',
        data: { batchId: body.batchId, status: 'completed', total: 1 },
      });
      expect(other.received).toHaveLength(0);
    } finally {
      await receiver.close();
      await other.close();
    }
  });
});
