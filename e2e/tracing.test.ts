import { fileURLToPath } from 'node:url';
import { photo, upload, waitForBatch } from '@renamer/api/testing';
import { freePort, type SpawnedService, spawnService, waitForStatus } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver';
import { type PipelineStack, startPipelineStack } from './support/pipeline-stack';

/** One upload traced from the API's request into the worker's jobs, as an OTLP receiver sees it. */

const API_ENTRY = fileURLToPath(new URL('../apps/api/src/server.ts', import.meta.url));

let stack: PipelineStack;
let api: SpawnedService;
let apiUrl: string;

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let spans: ReceivedSpan[];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  spans = receiver.spans;
  const otel = receiver.env;
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
  await receiver?.close();
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
