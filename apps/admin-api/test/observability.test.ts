import { createLogger, logStreamKey } from '@renamer/runtime';
import { freePort } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { histogramQuantile } from '../src/services/metrics-summary';
import { type AdminStack, signedIn, startAdminStack, userWithApiKey } from './support/admin-stack';

const ADMIN_EMAIL = 'observability-ops@renamer.test';
let stack: AdminStack;
let downWorker: string;

beforeAll(async () => {
  // A worker that is not running: the summary says it is down.
  downWorker = `http://127.0.0.1:${await freePort()}/metrics`;
  stack = await startAdminStack({
    name: 'admin-observability',
    adminEmails: ADMIN_EMAIL,
    env: { METRICS_TARGETS: `worker=${downWorker}` },
  });
  // The stack's API listens on a port chosen as it started: its target joins the admin API's list then.
  stack.adminEnv.METRICS_TARGETS.set('api', `${stack.apiUrl}/metrics`);
});
afterAll(() => stack?.close());

describe('GET /api/admin/logs', () => {
  it('shows the warnings and errors every service ships, filtered by service, request, level and time', async () => {
    const shipping = {
      redisUrl: stack.env.REDIS_URL,
      key: logStreamKey(stack.env.REDIS_PREFIX),
      maxEntries: 1000,
      retentionMs: 3600 * 1000,
    };
    const before = new Date().toISOString();
    const worker = createLogger('worker', 'warn', 'test', shipping);
    const api = createLogger('api', 'warn', 'test', shipping);
    worker.warn({ requestId: 'req-42' }, 'a job took its last attempt');
    api.error({ requestId: 'req-42', err: new Error('storage refused the write') }, 'upload failed');
    api.warn({ requestId: 'req-7' }, 'slow query');

    const admin = await signedIn(stack, ADMIN_EMAIL);
    const read = async (query: string) =>
      ((await (await admin.admin.fetch(`/api/admin/logs?${query}`)).json()) as { items: Record<string, unknown>[] })
        .items;
    await expect.poll(async () => (await read(`since=${before}`)).length, { timeout: 5_000 }).toBe(3);

    // Two loggers, two transports: which line reached the stream first is not theirs to say.
    const ofRequest = await read('requestId=req-42');
    expect(ofRequest).toHaveLength(2);
    expect(ofRequest).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          service: 'api',
          level: 'error',
          msg: 'upload failed',
          err: { type: 'Error', message: 'storage refused the write' },
        }),
        expect.objectContaining({ service: 'worker', level: 'warn', msg: 'a job took its last attempt' }),
      ]),
    );
    expect((await read('service=api&level=error')).map((entry) => entry.msg)).toEqual(['upload failed']);
    expect(await read(`since=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
  });
});

describe('GET /api/admin/metrics', () => {
  it('summarises each service: requests, rejected uploads by code, a service that is down, and the queues', async () => {
    const user = await userWithApiKey(stack);
    const form = new FormData();
    form.append('files', new Blob([Buffer.from('no picture\n')], { type: 'image/webp' }), 'x.webp');
    expect((await user.callApi('/api/batch', { method: 'POST', body: form })).status).toBe(422);

    const admin = await signedIn(stack, ADMIN_EMAIL);
    const response = await admin.admin.fetch('/api/admin/metrics');
    expect(response.status).toBe(200);
    const summary = (await response.json()) as {
      services: { name: string; up: boolean; error?: string; requests?: { total: number } }[];
      queues: Record<string, unknown>;
      totals: { requests: number; uploadsRejected: Record<string, number> };
    };
    expect(summary.services.find((service) => service.name === 'api')).toMatchObject({
      up: true,
      requests: { total: expect.any(Number) },
      uploadsRejected: { unsupported_media_type: expect.any(Number) },
    });
    expect(summary.totals.uploadsRejected.unsupported_media_type).toBeGreaterThanOrEqual(1);
    expect(summary.totals.requests).toBeGreaterThanOrEqual(2);
    expect(summary.services.find((service) => service.name === 'worker')).toMatchObject({
      up: false,
      error: expect.stringContaining(downWorker),
    });
    expect(summary.services.find((service) => service.name === 'admin-api')).toMatchObject({
      up: true,
      requests: { total: expect.any(Number) },
    });
    expect(Object.keys(summary.queues)).toEqual(['batches', 'images', 'maintenance', 'webhooks']);
  });

  it('reads the API’s rejected uploads by code from its Prometheus text', async () => {
    const user = await userWithApiKey(stack);
    const form = new FormData();
    form.append('files', new Blob([Buffer.from('not an image\n')], { type: 'image/png' }), 'y.png');
    await user.callApi('/api/batch', { method: 'POST', body: form });
    const text = await (await fetch(`${stack.apiUrl}/metrics`)).text();
    expect(text).toMatch(/uploads_rejected_total\{code="unsupported_media_type",service="api"\} [1-9]/);
  });
});

describe('histogram quantiles', () => {
  it('interpolates inside the bucket the rank falls in, as Prometheus does', () => {
    const buckets = new Map([
      [0.1, 50],
      [0.5, 90],
      [1, 100],
      [Number.POSITIVE_INFINITY, 100],
    ]);
    expect(histogramQuantile(buckets, 0.5)).toBeCloseTo(0.1);
    expect(histogramQuantile(buckets, 0.7)).toBeCloseTo(0.3);
    expect(histogramQuantile(buckets, 0.95)).toBeCloseTo(0.75);
    expect(histogramQuantile(new Map([[Number.POSITIVE_INFINITY, 0]]), 0.5)).toBeNull();
  });
});
