import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { photo, upload, waitForBatch } from '@renamer/api/testing';
import { freePort, type SpawnedService, spawnService, waitForStatus } from '@renamer/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PipelineStack, startPipelineStack } from './support/pipeline-stack';

/** One upload traced from the API's request into the worker's jobs, as an OTLP receiver sees it. */

const API_ENTRY = fileURLToPath(new URL('../apps/api/src/server.ts', import.meta.url));

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

/** An OTLP/HTTP receiver (JSON encoding): every span the services export, with its service's name. */
const spans: ReceivedSpan[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    if (request.url === '/v1/traces') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = resourceSpans.resource?.attributes?.find(
          (attribute: { key: string }) => attribute.key === 'service.name',
        )?.value?.stringValue;
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              attributes: Object.fromEntries(
                (span.attributes ?? []).map((a: { key: string; value: Record<string, unknown> }) => [
                  a.key,
                  Object.values(a.value)[0],
                ]),
              ),
            });
          }
        }
      }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

let stack: PipelineStack;
let api: SpawnedService;
let apiUrl: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const otel = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
  };
  stack = await startPipelineStack('tracing');
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  api = spawnService(API_ENTRY, {
    ...stack.env,
    ...otel,
    API_PORT: String(port),
    PUBLIC_URL: apiUrl,
    LOG_LEVEL: 'info',
    LOG_SHIPPING: 'false',
  });
  await waitForStatus(api, `${apiUrl}/health/ready`);
  await stack.startWorker({ ...otel, ANALYSIS_STEPS: '' });
}, 60_000);

afterAll(async () => {
  await api?.stop();
  await stack?.close();
  receiver.close();
});

describe('tracing', () => {
  it('shows the upload request and the worker’s jobs in one trace, with database and Redis spans', async () => {
    const owner = await stack.createUser();
    const { status, body } = await upload(apiUrl, owner.key, [
      { name: 'IMG_0001.JPG', bytes: await photo('jpeg', 91), type: 'image/jpeg' },
    ]);
    expect(status).toBe(201);
    await waitForBatch(apiUrl, owner.key, body.batchId, (batch) => batch.status === 'completed');

    const uploadSpan = () =>
      spans.find(
        (span) => span.service === 'api' && span.attributes['http.route'] === '/api/batch' && !span.parentSpanId,
      );
    await expect.poll(() => uploadSpan(), { timeout: 10_000 }).toBeDefined();
    const { traceId } = uploadSpan()!;
    const workerSpans = () => spans.filter((span) => span.service === 'worker' && span.traceId === traceId);
    const jobsRun = () => workerSpans().map((span) => span.attributes['bullmq.job.name']);
    await expect.poll(jobsRun, { timeout: 10_000 }).toEqual(expect.arrayContaining(['analyze-image', 'process-batch']));

    // The request's log line carries its trace.
    expect(api.output()).toMatch(
      new RegExp(
        `"traceId":"${traceId}"[^\n]*"msg":"request completed"|"msg":"request completed"[^\n]*"traceId":"${traceId}"`,
      ),
    );

    const inTrace = spans.filter((span) => span.traceId === traceId);
    expect(inTrace.some((span) => span.service === 'api' && span.name.startsWith('postgresql insert'))).toBe(true);
    expect(inTrace.some((span) => span.service === 'worker' && span.name.startsWith('postgresql'))).toBe(true);
    expect(inTrace.some((span) => span.attributes['db.system.name'] === 'redis')).toBe(true);
    // Redis spans name the command only: keys and values (ids, payloads) stay out of the traces.
    expect(
      inTrace.filter((span) => span.attributes['db.system.name'] === 'redis').map((s) => s.attributes['db.query.text']),
    ).not.toContainEqual(expect.stringContaining(':'));
  });
});
