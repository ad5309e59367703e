import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getJson, photo, upload, waitForBatch } from '@renamer/api/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PipelineStack, SLOW_WORKER_ENTRY, startPipelineStack } from './support/pipeline-stack';

/**
 * Webhooks end to end: the API (WEBHOOKS_ALLOW_INSECURE=true, so an endpoint on loopback may be made) and a
 * worker process that delivers, against a receiver on 127.0.0.1 that checks every signature with the
 * Standard Webhooks reference library.
 */
let stack: PipelineStack;
let api: { url: string };
let worker: Awaited<ReturnType<PipelineStack['startWorker']>>;
const WORKER_SETTINGS = { ANALYSIS_STEPS: '', WEBHOOKS_ALLOW_INSECURE: 'true', WEBHOOKS_RETRY_BASE_MS: '500' };

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
  worker = await stack.startWorker(WORKER_SETTINGS);
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

describe('a batch cancelled, and a batch the service could not analyse', () => {
  it('are announced as batch.cancelled, and as image.failed and batch.failed, each signed', async () => {
    const receiver = await startReceiver();
    try {
      const owner = await stack.createUser();
      const created = await createEndpoint(owner.key, receiver.url, [
        'batch.cancelled',
        'batch.failed',
        'image.failed',
      ]);
      receiver.useSecret(created.body!.secret);

      // No worker runs: the batch is still queued when it is cancelled (the API reports the event).
      await worker.stop();
      const queued = await upload(api.url, owner.key, [
        { name: 'first.jpg', bytes: await photo('jpeg', 21), type: 'image/jpeg' },
        { name: 'second.jpg', bytes: await photo('jpeg', 22), type: 'image/jpeg' },
      ]);
      const cancel = await getJson(`${api.url}/api/batch/${queued.body.batchId}/cancel`, owner.key, { method: 'POST' });
      expect(cancel.status).toBe(202);

      // A worker whose every analysis fails: the image fails for good after its retries, and so does its batch.
      await stack.startWorker({ ...WORKER_SETTINGS, FAIL_ANALYSIS: 'true' }, SLOW_WORKER_ENTRY);
      const doomed = await upload(api.url, owner.key, [
        { name: 'broken.jpg', bytes: await photo('jpeg', 23), type: 'image/jpeg' },
      ]);
      await waitForBatch(api.url, owner.key, doomed.body.batchId, (batch) => batch.status === 'failed', 60_000);

      const typeOf = ({ verified }: Received) => (verified instanceof Error ? verified.message : verified.type);
      await expect
        .poll(() => receiver.received.map(typeOf).sort(), { timeout: 20_000 })
        .toEqual(['batch.cancelled', 'batch.failed', 'image.failed']);
      for (const delivery of receiver.received) expect(delivery.verified).not.toBeInstanceOf(Error);
      const byType = new Map(receiver.received.map(({ verified }) => [(verified as { type: string }).type, verified]));
      expect(byType.get('batch.cancelled')).toMatchObject({
        data: { batchId: queued.body.batchId, status: 'cancelled', total: 2 },
      });
      expect(byType.get('image.failed')).toMatchObject({
        data: {
          image: { batchId: doomed.body.batchId, originalFilename: 'broken.jpg' },
          batch: { batchId: doomed.body.batchId },
        },
      });
      expect(byType.get('batch.failed')).toMatchObject({
        data: { batchId: doomed.body.batchId, status: 'failed', total: 1 },
      });
      // What went wrong inside the worker stays in its log.
      expect(JSON.stringify(byType.get('image.failed'))).not.toContain('on purpose');
    } finally {
      await receiver.close();
    }
  }, 90_000);
});
