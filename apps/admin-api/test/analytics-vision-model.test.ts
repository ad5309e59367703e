import { fileURLToPath } from 'node:url';
import { type Json, photo, upload, waitForBatch } from '@renamer/api/testing';
import { freePort, type SpawnedService, spawnService, waitForStatus } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The admin API does not depend on the LLM package; its fake server needs nothing but Node.
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../../../packages/llm/src/testing/fake-openai-server';
import { type AdminStack, signedIn, startAdminStack, userWithApiKey } from './support/admin-stack';

const WORKER_ENTRY = fileURLToPath(new URL('../../worker/src/server.ts', import.meta.url));
const ADMIN_EMAIL = 'vision-analytics-ops@renamer.test';

let stack: AdminStack;
let model: FakeOpenAiServer;
let worker: SpawnedService | undefined;

beforeAll(async () => {
  // Its own database: the sums below are of the whole database.
  stack = await startAdminStack({ name: 'admin-vision-analytics', adminEmails: ADMIN_EMAIL, isolatedDatabase: true });
  model = await startFakeOpenAiServer();
});
afterAll(async () => {
  await worker?.stop();
  await model?.close();
  await stack?.close();
});

/** The real worker, in a process of its own, with the fake model as its OpenAI-compatible endpoint. */
async function startWorker() {
  const port = await freePort();
  worker = spawnService(WORKER_ENTRY, {
    ...stack.serviceEnv,
    WORKER_PORT: String(port),
    ANALYSIS_STEPS: 'pixels,llm',
    LLM_BASE_URL: model.url,
    LLM_MODEL: 'vision-analytics-model',
    LLM_MAX_RETRIES: '0',
    LLM_TIMEOUT_MS: '5000',
  });
  await waitForStatus(worker, `http://127.0.0.1:${port}/health/ready`, 200, 40_000);
}

const answer = (words: string[]) =>
  JSON.stringify({ titleWords: words, tags: [], altText: `A ${words.join(' ')} seen close up.` });

describe("the vision model's use in admin analytics", () => {
  it('sums the tokens the model reported, its failures and the fall-backs, as the worker stored them', async () => {
    const user = await userWithApiKey(stack);
    const files = await Promise.all(
      [1, 2, 3].map(async (seed) => ({
        name: `IMG_90${seed}.JPG`,
        bytes: await photo('jpeg', seed),
        type: 'image/jpeg',
      })),
    );
    // Uploaded before any worker runs, so the batch's instructions are in place when its images are analysed.
    const { status, body } = await upload(stack.apiUrl, user.key, files);
    expect(status).toBe(201);
    const instructions = 'Mention the glaze colour.';
    // As the upload's `instructions` field stores them (the API takes it in another change of issue 26).
    await stack.platform.db.sql`update batches set instructions = ${instructions} where id = ${body.batchId}`;

    // One answer that names the image, one that does not fit (its tokens are billed all the same), one error.
    model.reply(
      { content: answer(['red', 'ceramic', 'mug']), usage: { prompt_tokens: 1500, completion_tokens: 60 } },
      { content: JSON.stringify({ titleWords: [] }), usage: { prompt_tokens: 1400, completion_tokens: 9 } },
      { status: 500 },
    );
    await startWorker();
    await waitForBatch(stack.apiUrl, user.key, body.batchId, (batch: Json) => batch.status === 'completed', 60_000);

    expect(model.requests).toHaveLength(3);
    for (const request of model.requests) expect(JSON.stringify(request.messages)).toContain(instructions);

    const admin = await signedIn(stack, ADMIN_EMAIL);
    const today = new Date().toISOString().slice(0, 10);
    const response = await admin.admin.fetch(`/api/admin/analytics?from=${today}`);
    expect(response.status).toBe(200);
    const analytics = (await response.json()) as Json;
    expect(analytics.images).toMatchObject({ uploaded: 3, processed: 3 });
    expect(analytics.visionModel).toEqual({
      calls: 3,
      tokens: { prompt: 1500 + 1400, completion: 60 + 9 },
      failures: 2,
      timedOut: 0,
      fallbacks: 2,
      instructionsUnused: 0,
    });
  });
});
